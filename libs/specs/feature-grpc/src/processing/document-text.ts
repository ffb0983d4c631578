import { parseDocument } from 'yaml';
import type { DocumentFormat } from '@bindery/specs/domain';
import { DocumentProblem } from './document-problem';

/** How many YAML aliases one document may expand (a "billion laughs" document is refused, not expanded). */
const MAX_YAML_ALIASES = 1000;

/** JSON when it starts like JSON; YAML otherwise (JSON is YAML too, but JSON.parse is much faster). */
export function formatOf(text: string): DocumentFormat {
  const first = text.replace(/^\uFEFF/, '').trimStart()[0];
  return first === '{' || first === '[' ? 'json' : 'yaml';
}

/**
 * A document file's text as an object: JSON or YAML 1.2 (no custom tags, aliases bounded, duplicate
 * keys refused). A syntax error is a PARSE_ERROR naming the file, the line and the column.
 */
export function parseDocumentText(text: string, file: string, entry = true): { value: Record<string, unknown>; format: DocumentFormat } {
  const source = text.replace(/^\uFEFF/, '');
  const format = formatOf(source);
  let value: unknown;
  if (format === 'json') {
    try {
      value = JSON.parse(source);
    } catch (err) {
      throw new DocumentProblem('PARSE_ERROR', [{ code: 'JSON_SYNTAX', message: `${file} is not valid JSON: ${(err as Error).message}` }]);
    }
  } else {
    const doc = parseDocument(source, { version: '1.2', uniqueKeys: true, prettyErrors: true, strict: true });
    if (doc.errors.length) {
      throw new DocumentProblem(
        'PARSE_ERROR',
        doc.errors.map((e) => {
          const at = e.linePos?.[0];
          // prettyErrors adds the position (and a code frame) to the message: the position is said once, first
          const what = e.message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '');
          return { code: 'YAML_SYNTAX', message: `${file} is not valid YAML${at ? ` (line ${at.line}, column ${at.col})` : ''}: ${what}.` };
        }),
      );
    }
    try {
      value = doc.toJS({ maxAliasCount: MAX_YAML_ALIASES });
    } catch (err) {
      throw new DocumentProblem('PARSE_ERROR', [{ code: 'YAML_SYNTAX', message: `${file} could not be read as YAML: ${(err as Error).message.split('\n')[0]}` }]);
    }
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    const found = value === null ? 'null' : Array.isArray(value) ? 'a list' : typeof value === 'object' ? 'an object' : `a ${typeof value}`;
    const expected = entry ? 'an OpenAPI document (an object with "openapi" or "swagger")' : 'an object';
    throw new DocumentProblem('PARSE_ERROR', [{ code: 'NOT_A_DOCUMENT', message: `${file} holds ${found}, not ${expected}.` }]);
  }
  return { value: value as Record<string, unknown>, format };
}
