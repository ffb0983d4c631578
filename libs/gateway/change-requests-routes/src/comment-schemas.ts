import { ID_PARAM, JSON_DOCUMENT, JsonSchema, LIST_QUERY } from '@bindery/gateway/http';
import { EMOJI_MAX_LENGTH, EMOJI_PATTERN } from '@bindery/shared/text';
import { CHANGE_REQUEST } from './change-request-schemas';

export const COMMENT = { ...CHANGE_REQUEST, commentId: ID_PARAM };
export const REPLY = { ...COMMENT, commentReplyId: ID_PARAM };

const FORMAT: JsonSchema = { type: 'string', enum: ['document', 'markdown'], default: 'document', description: 'The form of the bodies in the answer' };
const USER: JsonSchema = { type: 'string', minLength: 1, maxLength: 128 };

export const FORMAT_QUERY: Record<string, JsonSchema> = { format: FORMAT };

export const COMMENTS_QUERY: Record<string, JsonSchema> = {
  ...LIST_QUERY,
  order: { type: 'string', enum: ['asc', 'desc'], default: 'desc', description: 'By the time they were posted' },
  format: FORMAT,
  status: { type: 'string', enum: ['all', 'open', 'resolved'], default: 'all', description: 'Only comments with this status' },
  targetPage: { ...ID_PARAM, description: 'Only comments on this page' },
  authors: { anyOf: [USER, { type: 'array', items: USER, minItems: 1, maxItems: 100 }], description: 'Only comments posted by these users' },
};

export const REPLIES_QUERY: Record<string, JsonSchema> = { ...LIST_QUERY, format: FORMAT };

/** The official Document input: Markdown, a GitBook document, or nothing. */
const BODY: JsonSchema = {
  description: 'The content: {markdown}, {document}, or {} for none',
  anyOf: [
    { type: 'object', additionalProperties: false, required: ['markdown'], properties: { markdown: { type: 'string', maxLength: 65536 } } },
    { type: 'object', additionalProperties: false, required: ['document'], properties: { document: JSON_DOCUMENT } },
    { type: 'object', additionalProperties: false, maxProperties: 0 },
  ],
};

const EMOJI_LIST = (what: string): JsonSchema => ({
  type: 'array',
  maxItems: 20,
  items: { type: 'string', minLength: 1, maxLength: EMOJI_MAX_LENGTH, pattern: EMOJI_PATTERN, description: 'An emoji: no white space' },
  description: `Emoji reactions of the caller to ${what}`,
});

export const POST_COMMENT: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['body'],
  properties: {
    body: BODY,
    page: { ...ID_PARAM, description: "The page of the change request's head the comment is about" },
    node: { type: 'string', minLength: 1, maxLength: 128, description: 'The block of the page the comment is about' },
  },
};

export const UPDATE_COMMENT: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    resolved: { type: 'boolean', description: 'true resolves the comment, false reopens it' },
    body: { ...BODY, description: 'A new body (its author only)' },
    addedReactions: EMOJI_LIST('add'),
    removedReactions: EMOJI_LIST('remove'),
  },
};

export const POST_REPLY: JsonSchema = { type: 'object', additionalProperties: false, required: ['body'], properties: { body: BODY } };

export const UPDATE_REPLY: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: { body: { ...BODY, description: 'A new body (its author only)' }, addedReactions: EMOJI_LIST('add'), removedReactions: EMOJI_LIST('remove') },
};
