import { ID_PARAM, JSON_DOCUMENT, JsonSchema, LIST_QUERY } from '@bindery/gateway/http';
import { CHANGE_REQUEST, SUBJECT } from './change-request-schemas';

export const REVIEW = { ...CHANGE_REQUEST, reviewId: ID_PARAM };
export const REQUESTED_REVIEWER = { ...CHANGE_REQUEST, userId: ID_PARAM };

const FORMAT: JsonSchema = { type: 'string', enum: ['document', 'markdown'], default: 'document', description: "The form of review comments' bodies" };

export const REVIEW_QUERY: Record<string, JsonSchema> = { format: FORMAT };

export const REVIEWS_QUERY: Record<string, JsonSchema> = {
  ...LIST_QUERY,
  format: FORMAT,
  outdated: { type: 'boolean', description: 'true: only reviews superseded by a later review or review request of the same reviewer; false: only current ones' },
};

/** The official Document input: Markdown, a GitBook document, or nothing. */
const COMMENT_BODY: JsonSchema = {
  description: 'A comment posted with the review: {markdown}, {document}, or {} for none',
  anyOf: [
    { type: 'object', additionalProperties: false, required: ['markdown'], properties: { markdown: { type: 'string', maxLength: 65536 } } },
    { type: 'object', additionalProperties: false, required: ['document'], properties: { document: JSON_DOCUMENT } },
    { type: 'object', additionalProperties: false, maxProperties: 0 },
  ],
};

export const SUBMIT_REVIEW: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['status'],
  properties: { status: { type: 'string', enum: ['approved', 'changes-requested'] }, comment: COMMENT_BODY },
};

export const REQUEST_REVIEWERS: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['users'],
  properties: {
    users: { type: 'array', minItems: 1, maxItems: 100, items: ID_PARAM, description: 'The ids of the members asked to review (members with the review role on the space)' },
    subject: { ...SUBJECT, description: 'A new subject for the change request' },
  },
};
