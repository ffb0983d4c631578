import { ID_PARAM, JSON_DOCUMENT, JsonSchema, LIST_QUERY } from '@bindery/gateway/http';
import { TEXT_LIMITS } from '@bindery/shared/text';

export const SPACE = { spaceId: ID_PARAM };
export const CHANGE_REQUEST = { spaceId: ID_PARAM, changeRequestId: ID_PARAM };

export const SUBJECT: JsonSchema = { type: 'string', minLength: 0, maxLength: TEXT_LIMITS.changeRequestSubject.max, description: 'Subject of the change request' };
export const CREATE_CHANGE_REQUEST: JsonSchema = { type: 'object', additionalProperties: false, properties: { subject: SUBJECT } };

export const UPDATE_CHANGE_REQUEST: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: {
    subject: SUBJECT,
    description: { anyOf: [JSON_DOCUMENT, { type: 'null' }], description: 'A document, or null to remove it' },
    status: { type: 'string', enum: ['draft', 'open', 'archived'] },
  },
};

const TEXT: JsonSchema = { type: 'string', maxLength: 10000 };
const PAGE_ID: JsonSchema = { type: 'string', minLength: 1, maxLength: 128 };
const AT: JsonSchema = { type: 'integer', minimum: 0, description: 'Position among the siblings (default: last)' };
/** The page fields a change may set (content checks the same: change-input.ts). */
const PAGE_FIELDS: Record<string, JsonSchema> = {
  title: { type: 'string', minLength: 1, maxLength: 10000, pattern: '\\S', description: 'a title, not only white space' },
  slug: { type: 'string', maxLength: 100, pattern: '^[^/?#\\s\\u0000]*$', description: 'a slug without "/", "?", "#" or white space' },
  emoji: TEXT,
  icon: TEXT,
  description: TEXT,
  hidden: { type: 'boolean' },
  noIndex: { type: 'boolean' },
  noRobotsIndex: { type: 'boolean' },
  condition: TEXT,
};
const DOCUMENT_INPUT: JsonSchema = {
  description: 'The document: {markdown}, {document} (a GitBook document) or {} (empty)',
  oneOf: [
    { type: 'object', additionalProperties: false, required: ['markdown'], properties: { markdown: { type: 'string', maxLength: 5000000 } } },
    { type: 'object', additionalProperties: false, required: ['document'], properties: { document: JSON_DOCUMENT } },
    { type: 'object', additionalProperties: false, maxProperties: 0 },
  ],
};
const FILE_FIELDS: Record<string, JsonSchema> = { name: { type: 'string', minLength: 1, maxLength: 256 }, ref: TEXT, contentType: TEXT };
const FILE_ITEM: JsonSchema = {
  description: 'A file from a URL (fetched through the outbound guard), or base64 bytes with their content type',
  oneOf: [
    { type: 'object', additionalProperties: false, required: ['name', 'url'], properties: { ...FILE_FIELDS, url: { type: 'string', minLength: 1, maxLength: 2048 } } },
    { type: 'object', additionalProperties: false, required: ['name', 'base64', 'contentType'], properties: { ...FILE_FIELDS, base64: { type: 'string' } } },
  ],
};
const change = (operation: string, required: string[], properties: Record<string, JsonSchema>): JsonSchema => ({
  type: 'object',
  additionalProperties: false,
  required: ['operation', ...required],
  properties: { operation: { type: 'string', enum: [operation] }, ...properties },
});

/** The 0.202.0 ChangeRequestContentChange operations, each as content applies it (change-input.ts). */
const CHANGE: JsonSchema = {
  type: 'object',
  required: ['operation'],
  properties: { operation: { type: 'string', enum: ['insert_page', 'update_page', 'delete_page', 'revert_page', 'insert_files'] } },
  discriminator: { propertyName: 'operation' },
  oneOf: [
    change('insert_page', ['document'], { ...PAGE_FIELDS, document: DOCUMENT_INPUT, into: PAGE_ID, at: AT, ref: TEXT }),
    change('update_page', ['page'], {
      ...PAGE_FIELDS,
      page: PAGE_ID,
      document: DOCUMENT_INPUT,
      into: { anyOf: [PAGE_ID, { type: 'null' }], description: 'The new parent, null for the top' },
      at: AT,
    }),
    change('delete_page', ['page'], { page: PAGE_ID }),
    change('revert_page', ['page'], {
      page: PAGE_ID,
      revision: { ...PAGE_ID, description: "The revision to go back to (default: the change request's merge base)" },
      block: { type: 'array', maxItems: 1000, items: { type: 'string', maxLength: 256 }, description: 'Only these top-level blocks of the document' },
    }),
    change('insert_files', ['files'], { files: { type: 'array', minItems: 1, maxItems: 20, items: FILE_ITEM } }),
  ],
};

/** The batch: 1 to 50 changes, applied in order, all or nothing. */
export const UPDATE_CONTENT: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['changes'],
  properties: { changes: { type: 'array', minItems: 1, maxItems: 50, items: CHANGE } },
};

const STATUS: JsonSchema = { type: 'string', enum: ['draft', 'open', 'archived', 'merged'] };
const ORDER_BY: JsonSchema = { type: 'string', enum: ['updatedAt', 'createdAt'], default: 'updatedAt', description: 'Newest first on this field' };
const USER_FILTER = (what: string): JsonSchema => ({ type: 'string', minLength: 1, maxLength: 128, description: `Only change requests ${what} this user` });

export const SPACE_LIST_QUERY: Record<string, JsonSchema> = {
  ...LIST_QUERY,
  status: { ...STATUS, default: 'open', description: 'Only change requests with this status' },
  creator: USER_FILTER('created by'),
  contributor: USER_FILTER('with contributions from'),
  requestedReviewer: USER_FILTER('whose review is requested from'),
  orderBy: ORDER_BY,
};

export const ORG_LIST_QUERY: Record<string, JsonSchema> = {
  ...LIST_QUERY,
  status: { anyOf: [STATUS, { type: 'array', items: STATUS, maxItems: 4 }], description: 'Only change requests with one of these statuses (default open)' },
  creator: USER_FILTER('created by'),
  contributor: USER_FILTER('with contributions from'),
  requestedReviewer: USER_FILTER('whose review is requested from'),
  space: { ...ID_PARAM, description: 'Only change requests of this space' },
  orderBy: ORDER_BY,
};

export const CHANGES_QUERY: Record<string, JsonSchema> = { limit: { type: 'integer', minimum: 1, maximum: 1000, default: 10, description: 'At most this many changes' } };
export const COMPAT_QUERY: Record<string, JsonSchema> = {
  compat: { type: 'boolean', default: true, description: 'true: the change request; false: the change request with the affected pages and inserted files' },
};
