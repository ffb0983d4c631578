import type { JsonSchema } from './json-schema';
import { componentSchemasFor } from './official-schemas';
import { withTextRule } from './schemas';

/**
 * The official GitBook document (`JSONDocument` and every schema it references) as request schemas
 * name it: `JSON_DOCUMENT` is a reference ajv resolves to documentSchemasForValidation(), and the
 * served /openapi.json to `#/components/schemas/JSONDocument` (openapi-document.ts).
 */
export const OFFICIAL_DOCUMENT_ID = 'https://schemas.bindery.invalid/official-document';
export const OFFICIAL_DOCUMENT_REF_PREFIX = `${OFFICIAL_DOCUMENT_ID}#/$defs/`;
export const JSON_DOCUMENT: JsonSchema = { $ref: `${OFFICIAL_DOCUMENT_REF_PREFIX}JSONDocument` };

const COMPONENT_PREFIX = '#/components/schemas/';

/** The names of the official schemas a document is made of (JSONDocument and its references, transitively). */
/** The official JSONDocument and every schema it references, transitively. */
const officialClosure = () => componentSchemasFor([{ $ref: `${COMPONENT_PREFIX}JSONDocument` }]);

/** Values that are data, not schemas. */
const DATA_KEYWORDS = new Set(['enum', 'const', 'default', 'examples', 'required', 'description', 'title']);

/** Applies `f` to every schema in `node`, innermost first. */
const map = (node: unknown, f: (s: JsonSchema) => JsonSchema): unknown => {
  if (Array.isArray(node)) return node.map((n) => map(n, f));
  if (!node || typeof node !== 'object') return node;
  const entries = Object.entries(node).map(([k, v]) => [k, DATA_KEYWORDS.has(k) ? v : k === 'properties' ? mapValues(v as Record<string, unknown>, f) : map(v, f)]);
  return f(Object.fromEntries(entries));
};
const mapValues = (o: Record<string, unknown>, f: (s: JsonSchema) => JsonSchema) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, map(v, f)]));

/** `{type:'object'}` where the official schema leaves it implicit (ajv's strict mode asks for it). */
function explicitObject(s: JsonSchema): JsonSchema {
  const objectish = ['properties', 'additionalProperties', 'required'].some((k) => k in s);
  return objectish && !('type' in s) && !('$ref' in s) ? { type: 'object', ...s } : s;
}

/**
 * The definitions of the official document schemas, as the served document has them with the text
 * rule (no NUL in any text or field name, which the gateway refuses anyway: unsafeTextAt).
 */
export function documentComponents(): Record<string, JsonSchema> {
  return Object.fromEntries(Object.entries(officialClosure()).map(([name, s]) => [name, withTextRule(map(s, explicitObject) as JsonSchema)]));
}

/** Without the spec's own annotations (`x-internal` …), which ajv's strict mode does not know. */
const withoutExtensions = (s: JsonSchema): JsonSchema => Object.fromEntries(Object.entries(s).filter(([k]) => !k.startsWith('x-')));

/**
 * A required field the official schema does not declare (it is checked in an `allOf` beside it) is
 * declared as anything, which ajv's strict mode asks for; the schema means the same.
 */
function declaredRequired(s: JsonSchema): JsonSchema {
  if (!Array.isArray(s.required) || s.additionalProperties === false) return s;
  const properties = { ...((s.properties as Record<string, JsonSchema> | undefined) ?? {}) };
  const missing = (s.required as string[]).filter((name) => !(name in properties));
  if (!missing.length) return s;
  for (const name of missing) properties[name] = {};
  return { ...s, properties };
}

const refName = (s: JsonSchema): string | undefined => (typeof s.$ref === 'string' ? s.$ref.slice(s.$ref.lastIndexOf('/') + 1) : undefined);

/**
 * The same definitions for ajv, equivalent and faster to check, with errors that name one node kind:
 * a `oneOf` branch that is itself only a `oneOf` is replaced by its branches, and a `oneOf` whose
 * branches are all tagged by `type` (or by `object`) with distinct values gets a `discriminator`, so
 * ajv checks a node against the one branch its tag names (or says the tag is unknown). Its
 * `description` lists the tags, which the error message repeats.
 */
export function documentSchemasForValidation(): JsonSchema {
  // Without the text rule: the gateway refuses NUL before any schema (unsafeTextAt), and ajv
  // compiles the plain schemas in a fraction of the time.
  const defs = Object.fromEntries(Object.entries(officialClosure()).map(([name, s]) => [name, map(s, explicitObject) as JsonSchema]));
  const onlyOneOf = (name: string | undefined) => {
    const s = name ? defs[name] : undefined;
    return s && Array.isArray(s.oneOf) && Object.keys(s).every((k) => k === 'oneOf' || k === 'description' || k === 'title') ? (s.oneOf as JsonSchema[]) : undefined;
  };
  const flatten = (branches: JsonSchema[]): JsonSchema[] => branches.flatMap((b) => (Object.keys(b).length === 1 && onlyOneOf(refName(b)) ? flatten(onlyOneOf(refName(b))!) : [b]));
  const tagValues = (branches: JsonSchema[], tag: string): string[] | undefined => {
    const values: string[] = [];
    for (const b of branches) {
      const s = refName(b) ? defs[refName(b)!] : b;
      if (Array.isArray(s?.oneOf)) return undefined;
      const p = (s?.properties as Record<string, JsonSchema> | undefined)?.[tag];
      const required = Array.isArray(s?.required) && (s.required as string[]).includes(tag);
      const own = p && (Array.isArray(p.enum) ? (p.enum as unknown[]) : 'const' in p ? [p.const] : undefined);
      if (!required || !own || own.some((v) => typeof v !== 'string' || values.includes(v as string))) return undefined;
      values.push(...(own as string[]));
    }
    return values;
  };
  const discriminated = (s: JsonSchema, branches: JsonSchema[], tag: string, values: string[]): JsonSchema => ({
    ...s,
    oneOf: branches,
    type: 'object',
    discriminator: { propertyName: tag },
    description: values.map((v) => JSON.stringify(v)).join(', '),
  });
  const tagged = (s: JsonSchema): JsonSchema => {
    if (!Array.isArray(s.oneOf)) return s;
    const branches = flatten(s.oneOf as JsonSchema[]);
    const types = tagValues(branches, 'type');
    if (types) return discriminated(s, branches, 'type', types);
    // Text and inline nodes together: by `object` first, then each kind by `type`.
    const groups = new Map<string, JsonSchema[]>();
    for (const b of branches) {
      const kinds = tagValues([b], 'object');
      if (kinds?.length !== 1) return { ...s, oneOf: branches };
      groups.set(kinds[0], [...(groups.get(kinds[0]) ?? []), b]);
    }
    const grouped = [...groups].map(([kind, group]) => {
      if (group.length === 1) return group[0];
      const byType = tagValues(group, 'type');
      const wrapper: JsonSchema = { type: 'object', properties: { object: { type: 'string', enum: [kind] } }, required: ['object'] };
      return byType ? discriminated(wrapper, group, 'type', byType) : { ...wrapper, oneOf: group };
    });
    return discriminated(s, grouped, 'object', [...groups.keys()]);
  };
  const $defs = Object.fromEntries(Object.entries(defs).map(([name, s]) => [name, map(map(map(s, withoutExtensions), declaredRequired), tagged) as JsonSchema]));
  const local = JSON.parse(JSON.stringify($defs).split(`"${COMPONENT_PREFIX}`).join('"#/$defs/')) as JsonSchema;
  return { $id: OFFICIAL_DOCUMENT_ID, $defs: local };
}

/** A request schema's reference to a document schema, as the served document names it. */
export function documentComponentRef(ref: string): string | undefined {
  return ref.startsWith(OFFICIAL_DOCUMENT_REF_PREFIX) ? `${COMPONENT_PREFIX}${ref.slice(OFFICIAL_DOCUMENT_REF_PREFIX.length)}` : undefined;
}
