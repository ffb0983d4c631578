import { ID_PARAM, JsonSchema, LIST_QUERY } from '@bindery/gateway/http';
import { TEXT_LIMITS } from '@bindery/shared/text';

export const SPACE = { spaceId: ID_PARAM };
export const CHANGE_REQUEST = { spaceId: ID_PARAM, changeRequestId: ID_PARAM };

export const SUBJECT: JsonSchema = { type: 'string', minLength: 0, maxLength: TEXT_LIMITS.changeRequestSubject.max, description: 'Subject of the change request' };
const JSON_DOCUMENT: JsonSchema = {
  type: 'object',
  required: ['object', 'data', 'nodes'],
  properties: { object: { type: 'string', enum: ['document'] }, data: { type: 'object' }, nodes: { type: 'array', maxItems: 10000, items: { type: 'object' } } },
  description: 'A GitBook document',
};

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

const OPERATIONS = ['update_page', 'insert_page', 'delete_page', 'revert_page', 'insert_files'];

/** The batch's shape; each change is checked in full by content, which applies it. */
export const UPDATE_CONTENT: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['changes'],
  properties: {
    changes: {
      type: 'array',
      minItems: 1,
      maxItems: 50,
      items: { type: 'object', required: ['operation'], properties: { operation: { type: 'string', enum: OPERATIONS } } },
    },
  },
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
