/**
 * Where something is in a document, written for a person: `paths["/pets"].get.responses["200"]`
 * rather than the JSON pointer `/paths/~1pets/get/responses/200`.
 */
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$-]*$/;

export function readablePath(segments: readonly (string | number)[]): string {
  if (!segments.length) return 'the document root';
  return segments
    .map((s, i) => {
      if (typeof s === 'number') return `[${s}]`;
      if (IDENTIFIER.test(s)) return i === 0 ? s : `.${s}`;
      return `[${JSON.stringify(s)}]`;
    })
    .join('');
}

/** The segments of a JSON pointer (`/a/~1b/0`), numbers where they index an array of `root`. */
export function pointerSegments(pointer: string, root?: unknown): (string | number)[] {
  const raw = pointer.replace(/^#/, '');
  if (raw === '' || raw === '/') return [];
  const segments: (string | number)[] = [];
  let node = root;
  for (const part of raw.replace(/^\//, '').split('/')) {
    const s = part.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(node) && /^\d+$/.test(s)) {
      segments.push(Number(s));
      node = node[Number(s)];
    } else {
      segments.push(s);
      node = node && typeof node === 'object' ? (node as Record<string, unknown>)[s] : undefined;
    }
  }
  return segments;
}

/** A JSON pointer (or pointer segments) written for a person. */
export function readablePointer(pointer: string | readonly string[], root?: unknown): string {
  const text = Array.isArray(pointer) ? `/${pointer.map((p) => String(p).replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}` : (pointer as string);
  return readablePath(pointerSegments(text, root));
}

export interface RefSite {
  /** the `$ref` as written */
  ref: string;
  /** where the object holding it is */
  path: (string | number)[];
}

interface Frame {
  node: unknown;
  key: string | number;
  parent?: Frame;
}

function pathOf(frame: Frame): (string | number)[] {
  const path: (string | number)[] = [];
  for (let f: Frame | undefined = frame; f?.parent; f = f.parent) path.push(f.key);
  return path.reverse();
}

/**
 * Every `$ref` of a document with where it is, in document order. Iterative (documents are deep and
 * large), and a path is built only for the objects that hold a `$ref`: each frame knows its parent.
 */
export function referenceSites(root: unknown): RefSite[] {
  const out: RefSite[] = [];
  const stack: Frame[] = [{ node: root, key: '' }];
  while (stack.length) {
    const frame = stack.pop()!;
    const { node } = frame;
    if (Array.isArray(node)) {
      for (let i = node.length - 1; i >= 0; i--) if (node[i] && typeof node[i] === 'object') stack.push({ node: node[i], key: i, parent: frame });
    } else if (node && typeof node === 'object') {
      const obj = node as Record<string, unknown>;
      if (typeof obj.$ref === 'string') out.push({ ref: obj.$ref, path: pathOf(frame) });
      const keys = Object.keys(obj);
      for (let i = keys.length - 1; i >= 0; i--) {
        const v = obj[keys[i]];
        if (v && typeof v === 'object') stack.push({ node: v, key: keys[i], parent: frame });
      }
    }
  }
  return out;
}
