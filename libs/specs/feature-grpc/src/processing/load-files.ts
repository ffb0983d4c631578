import type { DocumentFormat } from '@bindery/specs/domain';
import { DocumentProblem } from './document-problem';
import { parseDocumentText } from './document-text';
import type { FileFetcher } from './fetch-file';
import { readablePath, referenceSites } from './json-paths';

/**
 * One file of a spec, in the shape of a Filesystem entry of @scalar/openapi-parser (the shape the
 * official `OpenAPISpecContent.filesystem` carries): the entry first, then every file its `$ref`s
 * reach. A referenced file is named by its `$ref` as written, which is how references find it.
 */
export interface FilesystemEntry {
  dir: string;
  isEntrypoint: boolean;
  references: string[];
  filename: string;
  specification: Record<string, unknown>;
}

export interface LoadedDocument {
  filesystem: FilesystemEntry[];
  format: DocumentFormat;
}

/** The file part of a `$ref` (before `#`), or undefined for a reference within the same file. */
export function fileOf(ref: string): string | undefined {
  const hash = ref.indexOf('#');
  const file = hash < 0 ? ref : ref.slice(0, hash);
  return file === '' ? undefined : file;
}

const isHttpUrl = (text: string) => /^https?:\/\//i.test(text);

/** The entry's name: its content is kept as JSON whatever it was written in, and wherever it came from. */
export const ENTRY_FILENAME = 'openapi.json';

/**
 * The spec's files: the entry (`text`, fetched from `url` when it has one) and, transitively, every
 * file its `$ref`s name, fetched through `fetchFile` (the outbound guard) and resolved against the
 * URL of the file that names them. A spec sent as text has no URL, so its relative references cannot
 * be resolved: that is a PARSE_ERROR naming the reference and where it is. At most `maxFiles` files.
 */
export async function loadFiles(entry: { text: string; url?: string }, fetchFile: FileFetcher, maxFiles: number): Promise<LoadedDocument> {
  const parsed = parseDocumentText(entry.text, 'The document');
  const root: FilesystemEntry = { dir: '.', isEntrypoint: true, references: [], filename: ENTRY_FILENAME, specification: parsed.value };
  const filesystem = [root];
  const byName = new Map<string, FilesystemEntry>();
  const fetched = new Map<string, { url: string; value: Record<string, unknown> }>();
  const queue: Array<{ file: FilesystemEntry; base?: string; label: string }> = [{ file: root, base: entry.url, label: '' }];
  while (queue.length) {
    const { file, base, label } = queue.shift()!;
    const seen = new Set<string>();
    for (const site of referenceSites(file.specification)) {
      const name = fileOf(site.ref);
      if (name === undefined || seen.has(name)) continue;
      seen.add(name);
      file.references.push(name);
      if (byName.has(name)) continue;
      const where = `the $ref ${JSON.stringify(site.ref)} at ${label}${readablePath(site.path)}`;
      let target: string;
      if (isHttpUrl(name)) target = name;
      else if (/^[a-z][a-z0-9+.-]*:/i.test(name)) throw new DocumentProblem('PARSE_ERROR', [{ code: 'REFERENCE_SCHEME', message: `${where} must point to an http or https URL.` }]);
      else if (!base)
        throw new DocumentProblem('PARSE_ERROR', [
          {
            code: 'RELATIVE_REFERENCE',
            message: `${where} names another file relative to the document, but a spec sent as text has no location: use an absolute URL, or send the spec by URL.`,
          },
        ]);
      else target = new URL(name, base).href;
      if (!fetched.has(target)) {
        if (fetched.size + 1 >= maxFiles)
          throw new DocumentProblem('PARSE_ERROR', [{ code: 'TOO_MANY_FILES', message: `${where}: a spec may reference at most ${maxFiles - 1} other files.` }]);
        const got = await fetchFile(target, where);
        fetched.set(target, { url: got.url, value: parseDocumentText(got.text, `The file of ${where}`, false).value });
      }
      const { url, value } = fetched.get(target)!;
      const referenced: FilesystemEntry = { dir: '.', isEntrypoint: false, references: [], filename: name, specification: value };
      byName.set(name, referenced);
      filesystem.push(referenced);
      queue.push({ file: referenced, base: url, label: `${name}: ` });
    }
  }
  return { filesystem, format: parsed.format };
}
