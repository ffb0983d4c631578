import { ID_PARAM, JsonSchema, LIST_QUERY } from '@bindery/gateway/http';

/** Request schemas of the site structure's routes: the official 0.130.0 request bodies, strict (unknown fields refused). */

const NULL: JsonSchema = { type: 'null' };
const nullable = (s: JsonSchema, description: string): JsonSchema => ({ anyOf: [s, NULL], description });

export const SITE = { organizationId: ID_PARAM, siteId: ID_PARAM };
export const SECTION = { ...SITE, siteSectionId: ID_PARAM };
export const SECTION_GROUP = { ...SITE, siteSectionGroupId: ID_PARAM };
export const GROUP_SECTION = { ...SECTION_GROUP, siteSectionId: ID_PARAM };
export const SITE_SPACE = { ...SITE, siteSpaceId: ID_PARAM };

const SHARE_KEY: JsonSchema = { type: 'string', minLength: 1, maxLength: 256, description: 'A share link’s key: opens the published share-link site read-only' };
export const SHARE_KEY_QUERY: Record<string, JsonSchema> = { shareKey: SHARE_KEY };
export const SHARED_LIST_QUERY: Record<string, JsonSchema> = { ...LIST_QUERY, shareKey: SHARE_KEY };
export const SITE_SPACES_QUERY: Record<string, JsonSchema> = {
  ...SHARED_LIST_QUERY,
  default: { type: 'boolean', description: 'true: only the default site spaces; false: only the others; absent: all' },
};

const SECTION_TITLE: JsonSchema = { type: 'string', minLength: 2, maxLength: 128, description: 'Title of the site section' };
const GROUP_TITLE: JsonSchema = { type: 'string', minLength: 1, maxLength: 100, description: 'Title of the site section group' };
const PATH: JsonSchema = {
  type: 'string',
  minLength: 1,
  maxLength: 100,
  pattern: '^[a-z0-9](?:[a-z0-9-]{0,98}[a-z0-9])?$',
  description: 'One segment of the published URL: lower-case letters, digits and hyphens, starting and ending with a letter or digit',
};
const ICON: JsonSchema = { type: 'string', minLength: 1, maxLength: 50, description: 'Name of the icon' };
const DESCRIPTION: JsonSchema = { type: 'string', minLength: 0, maxLength: 256, description: 'Description of the site section' };
const CONDITION: JsonSchema = {
  type: 'string',
  minLength: 1,
  maxLength: 1024,
  description: "An expression over visitor.claims deciding whether a visitor is shown the item, e.g. visitor.claims.plan === 'pro'",
};

const object = (properties: Record<string, JsonSchema>, required: string[] = []): JsonSchema => ({ type: 'object', additionalProperties: false, required, properties });

export const ADD_SECTION = object(
  {
    spaceId: { ...ID_PARAM, description: 'The space shown by the section’s first site space' },
    title: nullable(SECTION_TITLE, 'The section’s title; null or absent: the space’s'),
    icon: nullable(ICON, 'The section’s icon'),
  },
  ['spaceId'],
);

export const UPDATE_SECTION = object({
  title: SECTION_TITLE,
  path: PATH,
  defaultSiteSpace: { ...ID_PARAM, description: 'A site space of this section, to be its default' },
  condition: nullable(CONDITION, 'null removes the condition'),
  icon: nullable(ICON, 'null removes the icon'),
  description: nullable(DESCRIPTION, 'null removes the description'),
});

export const ADD_SECTION_GROUP = object(
  {
    title: GROUP_TITLE,
    icon: nullable(ICON, 'The group’s icon'),
    sections: { type: 'array', maxItems: 1000, items: ID_PARAM, description: 'Sections of the site to move into the group, in order' },
  },
  ['title'],
);

export const UPDATE_SECTION_GROUP = object({ title: GROUP_TITLE, icon: nullable(ICON, 'null removes the icon') });

export const ADD_SECTION_TO_GROUP = object({ sectionId: ID_PARAM }, ['sectionId']);

export const ADD_SITE_SPACE = object(
  {
    spaceId: { ...ID_PARAM, description: 'The space the site space shows' },
    sectionId: { ...ID_PARAM, description: 'The section to add it to; absent: the default section, or the root of a site without sections' },
  },
  ['spaceId'],
);

export const UPDATE_SITE_SPACE = object({
  path: PATH,
  condition: nullable(CONDITION, 'null removes the condition'),
  spaceId: { ...ID_PARAM, description: 'The space the site space shows instead' },
});

const pointer = (type: string[], idField: string): JsonSchema => object({ type: { type: 'string', enum: type }, [idField]: ID_PARAM }, ['type', idField]);
const position = (p: JsonSchema, description: string): JsonSchema => ({ ...object({ before: p, after: p }), description, maxProperties: 1 });

const moveBody = (p: JsonSchema, what: string) => object({ position: position(p, `Where to move the ${what} among the items of its level; absent: to the end`) });

export const MOVE_SECTION = moveBody(pointer(['site-section'], 'siteSection'), 'section');
export const MOVE_SECTION_GROUP = moveBody(pointer(['site-section', 'site-section-group'], 'id'), 'section group');
export const MOVE_SITE_SPACE = moveBody(pointer(['site-space'], 'siteSpace'), 'site space');

const ITEM = pointer(['site-space', 'site-section', 'site-section-group'], 'id');
export const SORT_STRUCTURE = object({ item: ITEM, position: position(ITEM, 'Before or after an item of the same level; neither: to the end of the level') }, ['item', 'position']);

/** A pointer of a request in the form the structure service takes. */
export function pointerOf(p: { type: string; id?: string; siteSection?: string; siteSpace?: string } | undefined) {
  return p ? { type: p.type, id: p.id ?? p.siteSection ?? p.siteSpace ?? '' } : undefined;
}
