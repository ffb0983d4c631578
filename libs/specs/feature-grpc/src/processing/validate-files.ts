import { validate } from '@scalar/openapi-parser';
import type { ProcessError } from '@bindery/specs/domain';
import type { FilesystemEntry } from './load-files';
import { readablePath, readablePointer, referenceSites } from './json-paths';

/** The versions a document may declare, as scalar reads them. */
const VERSION_HINT = 'The document must declare `openapi: 3.0.x`, `openapi: 3.1.x` or `swagger: "2.0"` at its root.';

/**
 * Validates the spec's files with @scalar/openapi-parser (the OpenAPI 2.0, 3.0 and 3.1 schemas, and
 * every `$ref` resolved across the files). Each problem says where it is and what is wrong: scalar
 * gives a JSON pointer for schema problems, and for a reference that resolves to nothing the first
 * place it is written is looked up here.
 */
export async function validateFiles(filesystem: FilesystemEntry[]): Promise<ProcessError[]> {
  const entry = filesystem[0].specification;
  const result = await validate(filesystem.length === 1 ? entry : (filesystem as never));
  if (result.valid) return [];
  let sites: ReturnType<typeof referenceSites> | undefined;
  return (result.errors ?? []).map((e) => {
    const code = e.code ?? 'INVALID';
    if (e.path !== undefined && e.path !== '') return { code, message: `${readablePointer(e.path, entry)}: ${e.message}` };
    const ref = /reference: (.+)$/.exec(e.message)?.[1];
    if (ref) {
      sites ??= referenceSites(entry);
      const site = sites.find((s) => s.ref === ref);
      if (site) return { code, message: `${readablePath(site.path)}: the $ref ${JSON.stringify(ref)} points to nothing in the document.` };
      return { code, message: `The $ref ${JSON.stringify(ref)} points to nothing in the document.` };
    }
    if (/supported Swagger\/OpenAPI version/.test(e.message)) return { code: 'UNSUPPORTED_VERSION', message: `${e.message} ${VERSION_HINT}` };
    return { code, message: e.message };
  });
}
