/**
 * A processed OpenAPI spec as the specs service stores a version: its files (the entry and those its
 * `$ref`s reach, each parsed), read here with references followed on demand and cycles cut.
 */

export type Json = Record<string, unknown>;

/** One file of a version (the Filesystem entry the specs service stores). */
export interface ApiSpecFile {
  filename: string;
  isEntrypoint?: boolean;
  specification: Json;
}

/** The latest processed version of a spec, as a published page reads it. */
export interface PublishedApiSpec {
  specId: string;
  versionId: string;
  files: ApiSpecFile[];
}

/** A value reached through references: where it is (for the next relative reference) and what it was called. */
export interface Located {
  value: Json;
  file: ApiSpecFile;
  /** the last reference followed: `<file>#<pointer>` (a cycle is a reference already on the way) */
  ref?: string;
  /** the referenced name (`Pet` for `#/components/schemas/Pet`) */
  name?: string;
}

export const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

const decodeSegment = (s: string) => {
  let out = s.replace(/~1/g, '/').replace(/~0/g, '~');
  try {
    out = decodeURIComponent(out);
  } catch {
    // kept as written
  }
  return out;
};

/** How many references a chain may follow (`A → B → A` ends sooner: it is a cycle). */
const MAX_CHAIN = 20;

export class SpecDocument {
  readonly entry: ApiSpecFile;

  constructor(readonly files: ApiSpecFile[]) {
    const entry = files.find((f) => f.isEntrypoint) ?? files[0];
    if (!entry || !isObject(entry.specification)) throw new Error('a spec without an entry file');
    this.entry = entry;
  }

  get root(): Json {
    return this.entry.specification;
  }

  /** The file a reference's file part names (as the `$ref` gives it, `./` ignored). */
  private fileNamed(name: string, from: ApiSpecFile): ApiSpecFile | undefined {
    if (!name) return from;
    const bare = name.replace(/^\.\//, '');
    return this.files.find((f) => f.filename === name || f.filename === bare || f.filename.replace(/^\.\//, '') === bare || f.filename.endsWith(`/${bare}`));
  }

  /** What a `$ref` points to, from the file holding it; undefined when it points nowhere. */
  target(ref: string, from: ApiSpecFile): Located | undefined {
    const hash = ref.indexOf('#');
    const file = this.fileNamed(hash < 0 ? ref : ref.slice(0, hash), from);
    if (!file) return undefined;
    const pointer = hash < 0 ? '' : ref.slice(hash + 1);
    let value: unknown = file.specification;
    const segments = pointer.split('/').slice(1).map(decodeSegment);
    for (const segment of segments) {
      if (Array.isArray(value)) value = value[Number(segment)];
      else if (isObject(value)) value = value[segment];
      else return undefined;
    }
    if (!isObject(value)) return undefined;
    return { value, file, ref: `${file.filename}#${pointer}`, name: segments[segments.length - 1] };
  }

  /**
   * `value` with its `$ref` chain followed (an object beside `$ref` keeps its own description).
   * `seen` holds the references already on the way from the top: reaching one again is a cycle,
   * answered with `cycle` set and nothing followed.
   */
  resolve(value: unknown, file: ApiSpecFile, seen: ReadonlySet<string> = new Set()): (Located & { cycle?: boolean }) | undefined {
    if (!isObject(value)) return undefined;
    let at: Located = { value, file };
    for (let i = 0; i < MAX_CHAIN && typeof at.value.$ref === 'string'; i++) {
      const next = this.target(at.value.$ref, at.file);
      if (!next) return { ...at, name: refName(at.value.$ref) };
      if (seen.has(next.ref!)) return { ...next, cycle: true };
      const description = at.value.description;
      at = description !== undefined && next.value.description === undefined ? { ...next, value: { ...next.value, description } } : next;
    }
    return at;
  }
}

/** The last segment of a reference: the name it gives its target. */
export function refName(ref: string): string {
  const segments = ref.split('/');
  return decodeSegment(segments[segments.length - 1] || ref);
}
