import { DomainError } from '@bindery/platform/errors';
import type { ContentRef, Document } from '@bindery/shared/markdown';

/** The 0.202.0 `updateChangeRequestContent` changes, as this service applies them. */
export interface PageFields {
  title?: string;
  slug?: string;
  emoji?: string;
  icon?: string;
  description?: string;
  hidden?: boolean;
  noIndex?: boolean;
  noRobotsIndex?: boolean;
  condition?: string;
}

export type DocumentInput = { markdown: string } | { document: Document } | Record<string, never>;

export type InsertFileItem = { name: string; ref?: string; contentType?: string } & ({ url: string } | { base64: string });

/**
 * Fields only the service's own imports set (never accepted from a request: parseChanges refuses them):
 * `type: 'group'` inserts a group and `type: 'link'` a link page leading to `target`; `source` is the
 * file a page was imported from, against which the relative links, image sources and cover of its
 * Markdown resolve (see LinkTargets), and whose `title` (SUMMARY.md's link text) wins over the
 * Markdown's `# H1`; `preferredSlug` is the slug of the file's name, made unique among siblings.
 */
export interface ImportFields {
  source?: string;
  target?: ContentRef;
  preferredSlug?: string;
}

export type ContentChange =
  | ({ operation: 'insert_page'; document: DocumentInput; into?: string; at?: number; ref?: string; type?: 'document' | 'group' | 'link' } & PageFields & ImportFields)
  | ({ operation: 'update_page'; page: string; document?: DocumentInput; into?: string | null; at?: number } & PageFields & ImportFields)
  | { operation: 'delete_page'; page: string }
  | { operation: 'revert_page'; page: string; revision?: string; block?: string[] }
  | { operation: 'insert_files'; files: InsertFileItem[] };

export const MAX_CHANGES = 50;

const PAGE_FIELDS: Record<keyof PageFields, 'string' | 'boolean'> = {
  title: 'string',
  slug: 'string',
  emoji: 'string',
  icon: 'string',
  description: 'string',
  hidden: 'boolean',
  noIndex: 'boolean',
  noRobotsIndex: 'boolean',
  condition: 'string',
};

const bad = (message: string) => new DomainError('invalid', message);
const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

function checkFields(change: Record<string, unknown>, at: string, allowed: Record<string, string>): void {
  for (const [key, value] of Object.entries(change)) {
    const type = allowed[key];
    if (!type) throw bad(`${at}: unknown field "${key}".`);
    if (type === 'any') continue;
    if (type === 'index') {
      if (!Number.isInteger(value) || (value as number) < 0) throw bad(`${at}.${key} must be an integer ≥ 0.`);
    } else if (type === 'nullable-string') {
      if (value !== null && typeof value !== 'string') throw bad(`${at}.${key} must be a page id or null.`);
    } else if (typeof value !== type) throw bad(`${at}.${key} must be a ${type}.`);
  }
  if (typeof change.title === 'string' && !change.title.trim()) throw bad(`${at}.title may not be empty.`);
  if (typeof change.slug === 'string' && change.slug.length > 100) throw bad(`${at}.slug is longer than 100 characters.`);
}

function checkDocument(value: unknown, at: string, required: boolean): void {
  if (value === undefined && !required) return;
  if (!isObject(value)) throw bad(`${at}.document must be {markdown}, {document} or {}.`);
  const keys = Object.keys(value);
  if (keys.length === 0) return;
  if (keys.length === 1 && typeof value.markdown === 'string') return;
  if (keys.length === 1 && isObject(value.document) && value.document.object === 'document' && Array.isArray(value.document.nodes)) return;
  throw bad(`${at}.document must be {markdown: string}, {document: {object: "document", nodes: [...]}} or {}.`);
}

function checkFile(item: unknown, at: string): void {
  if (!isObject(item)) throw bad(`${at} must be an object.`);
  checkFields(item, at, { name: 'string', ref: 'string', contentType: 'string', url: 'string', base64: 'string' });
  if (typeof item.name !== 'string' || !item.name || item.name.length > 256) throw bad(`${at}.name must be 1 to 256 characters.`);
  if ((item.url === undefined) === (item.base64 === undefined)) throw bad(`${at} must have exactly one of url and base64.`);
  if (item.base64 !== undefined && !item.contentType) throw bad(`${at}.contentType is required with base64.`);
}

/** Parses and checks a batch of changes; anything malformed is a 400 naming the change and the field. */
export function parseChanges(json: string): ContentChange[] {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    throw bad('changes must be JSON.');
  }
  if (!Array.isArray(value) || value.length < 1 || value.length > MAX_CHANGES) throw bad(`changes must hold 1 to ${MAX_CHANGES} changes.`);
  value.forEach((change, i) => {
    const at = `changes[${i}]`;
    if (!isObject(change)) throw bad(`${at} must be an object.`);
    switch (change.operation) {
      case 'insert_page':
        checkFields(change, at, { ...PAGE_FIELDS, operation: 'any', document: 'any', into: 'string', at: 'index', ref: 'string' });
        checkDocument(change.document, at, true);
        break;
      case 'update_page':
        checkFields(change, at, { ...PAGE_FIELDS, operation: 'any', page: 'string', document: 'any', into: 'nullable-string', at: 'index' });
        if (typeof change.page !== 'string') throw bad(`${at}.page is required.`);
        checkDocument(change.document, at, false);
        break;
      case 'delete_page':
        checkFields(change, at, { operation: 'any', page: 'string' });
        if (typeof change.page !== 'string') throw bad(`${at}.page is required.`);
        break;
      case 'insert_files':
        checkFields(change, at, { operation: 'any', files: 'any' });
        if (!Array.isArray(change.files) || change.files.length < 1 || change.files.length > 20) throw bad(`${at}.files must hold 1 to 20 files.`);
        change.files.forEach((f, j) => checkFile(f, `${at}.files[${j}]`));
        break;
      case 'revert_page':
        checkFields(change, at, { operation: 'any', page: 'string', revision: 'string', block: 'any' });
        if (typeof change.page !== 'string') throw bad(`${at}.page is required.`);
        if (change.block !== undefined && (!Array.isArray(change.block) || change.block.length > 1000 || change.block.some((k) => typeof k !== 'string')))
          throw bad(`${at}.block must be a list of up to 1000 block keys.`);
        break;
      default:
        throw bad(`${at}.operation must be insert_page, update_page, delete_page, revert_page or insert_files.`);
    }
  });
  return value as ContentChange[];
}
