import { ID_PARAM, JsonSchema, LIST_QUERY, object, ROLE, ROLE_OR_GUEST } from '@bindery/gateway/http';
import { TEXT_LIMITS } from '@bindery/shared/text';

/** Request schemas of content's routes (limits from the API reference). */
const NULL = { type: 'null' };
const TITLE = { type: 'string', maxLength: TEXT_LIMITS.contentTitle.max };
const EMOJI = { type: 'string', maxLength: 50, description: 'Unicode codepoint or character of the emoji' };
const ICON = { type: 'string', format: 'uri', maxLength: 2048 };
const EDIT_MODE = { type: 'string', enum: ['live', 'locked'] };
/** The spec's DefaultLevel: a role, `inherit` (from the parent), or null (no access by default). */
export const DEFAULT_LEVEL = { anyOf: [ROLE, { type: 'string', enum: ['inherit'] }, NULL] };

export const SPACE_PARAM = { spaceId: ID_PARAM };
export const COLLECTION_PARAM = { collectionId: ID_PARAM };
export const ORG_PARAM = { organizationId: ID_PARAM };

// `template`, `computedSource` and `language` are left out: they are not available on this instance
// yet, so sending one is a 400 naming it (a new space is always empty).
export const CREATE_SPACE = object({
  title: TITLE,
  emoji: EMOJI,
  parent: ID_PARAM,
  editMode: EDIT_MODE,
  empty: { type: 'boolean', const: true, description: 'true (a new space is always empty: templates and computed sources are not available yet)' },
});

// The spec's oneOf: a space shows an emoji or an icon, never both; either may be removed (null).
export const UPDATE_SPACE: JsonSchema = {
  ...object({ title: TITLE, emoji: { anyOf: [EMOJI, NULL] }, icon: { anyOf: [ICON, NULL] }, defaultLevel: DEFAULT_LEVEL, editMode: EDIT_MODE }),
  if: { properties: { emoji: { not: NULL } }, required: ['emoji'] },
  then: { properties: { icon: { const: null, description: 'null or left out when emoji is set (a space has an emoji or an icon, not both)' } } },
};

/** A sibling of the moved item: the spec's SpacePointer or CollectionPointer. */
const POINTER = {
  anyOf: [
    object({ type: { type: 'string', enum: ['space'] }, space: ID_PARAM }, ['type', 'space']),
    object({ type: { type: 'string', enum: ['collection'] }, collection: ID_PARAM }, ['type', 'collection']),
  ],
};
export const MOVE: JsonSchema = {
  ...object({
    parent: { anyOf: [ID_PARAM, NULL], description: 'The parent collection; null: the top level of the organization' },
    position: { ...object({ before: POINTER, after: POINTER }), description: 'Where to place it among its siblings; by default at the end' },
  }),
  minProperties: 1,
};

export const TRANSFER = object({ organization: { ...ID_PARAM, description: 'The target organization' } }, ['organization']);

export const CREATE_COLLECTION = object({ title: TITLE, parent: ID_PARAM });
export const UPDATE_COLLECTION = object({
  title: TITLE,
  description: { anyOf: [{ type: 'string', maxLength: TEXT_LIMITS.collectionDescription.max }, NULL] },
  defaultLevel: DEFAULT_LEVEL,
});

// The spec's InviteUsersAndTeams: a role (null: remove their grants) for users and/or teams, at least one of them.
const PRINCIPALS = { type: 'array', minItems: 1, maxItems: 1000, items: ID_PARAM };
const INVITE_FIELDS = { role: ROLE_OR_GUEST, users: PRINCIPALS, teams: PRINCIPALS };
export const INVITE: JsonSchema = { anyOf: [object(INVITE_FIELDS, ['role', 'users']), object(INVITE_FIELDS, ['role', 'teams'])] };

/** A grant's new role; null removes it. */
export const UPDATE_GRANT = object({ role: ROLE_OR_GUEST }, ['role']);

export const ORDER = { type: 'string', enum: ['asc', 'desc'] };
export const AGGREGATE_QUERY = { ...LIST_QUERY, role: ROLE };
export const COLLECTIONS_QUERY = { ...LIST_QUERY, nested: { type: 'boolean', default: true, description: 'false: only the top-level collections' } };
