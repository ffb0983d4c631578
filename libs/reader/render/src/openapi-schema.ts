import type { Element } from 'hast';
import { Child, Children, el } from './hast';
import { ApiSpecFile, isObject, Json, SpecDocument } from './openapi-spec';

/** How deep nested properties are listed (deeper ones name their type only). */
const MAX_DEPTH = 6;
/** Properties listed (and put in an example) per object. */
const MAX_PROPERTIES = 60;
/** Alternatives (`oneOf`, `anyOf`) listed per schema. */
const MAX_ALTERNATIVES = 20;
/**
 * Schemas one list or one example may open in all: distinct schemas referring to each other 60 times
 * over would otherwise expand exponentially (60^depth) and hold a reader replica. Past it, a schema is
 * shown as `any` and left out of examples.
 */
const MAX_SCHEMAS_OPENED = 2000;

/** Renders descriptions (Markdown) as safe HTML: given by the operation's renderer. */
export type DescriptionRenderer = (markdown: string) => Child[];

interface Walk {
  doc: SpecDocument;
  file: ApiSpecFile;
  seen: ReadonlySet<string>;
  depth: number;
  /** schemas this list or example may still open, shared by the whole walk */
  budget: { left: number };
}

/** A schema and what it was called, references followed; `cycle`: a reference to a schema already open above. */
interface SchemaAt {
  schema: Json;
  walk: Walk;
  name?: string;
  cycle?: boolean;
}

function at(value: unknown, walk: Walk): SchemaAt | undefined {
  if (walk.budget.left <= 0) return undefined;
  walk.budget.left -= 1;
  const found = walk.doc.resolve(value, walk.file, walk.seen);
  if (!found) return undefined;
  const seen = found.ref && !found.cycle ? new Set([...walk.seen, found.ref]) : walk.seen;
  return { schema: found.value, name: found.ref ? found.name : undefined, cycle: found.cycle, walk: { ...walk, file: found.file, seen } };
}

/** The parts of `allOf` merged into one object schema (properties and required lists joined). */
function merged(s: SchemaAt): SchemaAt {
  if (!Array.isArray(s.schema.allOf)) return s;
  const properties: Json = {};
  const required: string[] = [];
  const rest: Json = { ...s.schema };
  delete rest.allOf;
  let walk = s.walk;
  for (const part of [rest, ...(s.schema.allOf as unknown[])]) {
    // the schema's own keywords beside `allOf` are a part too (without `allOf`: merging it again would never end)
    const p = part === rest ? { ...s, schema: rest } : at(part, s.walk);
    if (!p || p.cycle) continue;
    const m = merged(p);
    // Properties keep the file they were written in only through their own references; parts in one file are the common case.
    walk = { ...walk, seen: new Set([...walk.seen, ...m.walk.seen]) };
    if (isObject(m.schema.properties)) Object.assign(properties, m.schema.properties);
    if (Array.isArray(m.schema.required)) required.push(...(m.schema.required as string[]));
    for (const k of ['type', 'description', 'example', 'additionalProperties']) if (rest[k] === undefined && m.schema[k] !== undefined) rest[k] = m.schema[k];
  }
  return { ...s, schema: { ...rest, type: rest.type ?? 'object', properties, required }, walk };
}

const alternativesOf = (schema: Json): unknown[] | undefined =>
  (Array.isArray(schema.oneOf) ? schema.oneOf : Array.isArray(schema.anyOf) ? schema.anyOf : undefined)?.slice(0, MAX_ALTERNATIVES);

/** The type of a schema in words: `string`, `integer · int64`, `array of Pet`, `object`, `Pet · cycle`. */
export function typeLabel(s: SchemaAt): string {
  if (s.cycle) return s.name ?? 'object';
  const schema = s.schema;
  const types = Array.isArray(schema.type) ? (schema.type as string[]).join(' | ') : typeof schema.type === 'string' ? schema.type : undefined;
  if (types === 'array' || (!types && schema.items !== undefined)) {
    const items = at(schema.items, s.walk);
    return `array of ${items ? (items.name ?? typeLabel(items)) : 'any'}`;
  }
  const alternatives = alternativesOf(schema);
  if (!types && alternatives)
    return alternatives
      .map((a) => {
        const x = at(a, s.walk);
        return x ? (x.name ?? typeLabel(x)) : 'any';
      })
      .join(' | ');
  const base = types ?? (isObject(schema.properties) || Array.isArray(schema.allOf) ? 'object' : 'any');
  return typeof schema.format === 'string' ? `${base} · ${schema.format}` : base;
}

/**
 * A schema as a nested, readable list of its properties: name, type, required, enum, default and
 * description, nested objects and arrays of objects below their property. A reference to a schema
 * already open above it is named, not opened again (the cycle is cut).
 */
export function schemaList(value: unknown, file: ApiSpecFile, doc: SpecDocument, describe: DescriptionRenderer): Element | undefined {
  const s = at(value, { doc, file, seen: new Set(), depth: 0, budget: { left: MAX_SCHEMAS_OPENED } });
  return s ? schemaBody(s, describe) : undefined;
}

function schemaBody(start: SchemaAt, describe: DescriptionRenderer): Element | undefined {
  const s = merged(start);
  const schema = s.schema;
  if (s.cycle) return el('p', { className: ['api-cycle'] }, `${s.name ?? 'This schema'} (recursive: described above)`);
  const items = schema.type === 'array' || (schema.type === undefined && schema.items !== undefined) ? at(schema.items, s.walk) : undefined;
  if (items) {
    const inner = items.cycle ? undefined : schemaBody({ ...items, walk: { ...items.walk, depth: s.walk.depth } }, describe);
    return el('div', { className: ['api-schema'] }, el('p', { className: ['api-schema-type'] }, el('code', {}, typeLabel(s))), inner);
  }
  const alternatives = alternativesOf(schema);
  if (alternatives && !isObject(schema.properties)) {
    return el(
      'div',
      { className: ['api-schema'] },
      el('p', {}, Array.isArray(schema.oneOf) ? 'One of:' : 'Any of:'),
      el(
        'ol',
        { className: ['api-alternatives'] },
        alternatives.map((a) => {
          const x = at(a, s.walk);
          return el(
            'li',
            {},
            x
              ? [
                  el('code', {}, x.name ?? typeLabel(x)),
                  s.walk.depth < MAX_DEPTH && !x.cycle ? schemaBody({ ...x, walk: { ...x.walk, depth: s.walk.depth + 1 } }, describe) : undefined,
                ]
              : 'any',
          );
        }),
      ),
    );
  }
  if (!isObject(schema.properties)) {
    return el(
      'div',
      { className: ['api-schema'] },
      el('p', { className: ['api-schema-type'] }, el('code', {}, typeLabel(s))),
      constraints(schema),
      typeof schema.description === 'string' ? describe(schema.description) : undefined,
    );
  }
  return propertyList(s, describe);
}

function propertyList(s: SchemaAt, describe: DescriptionRenderer): Element {
  const required = new Set(Array.isArray(s.schema.required) ? (s.schema.required as string[]) : []);
  const entries = Object.entries(s.schema.properties as Json).slice(0, MAX_PROPERTIES);
  return el(
    'ul',
    { className: ['api-properties'] },
    entries.map(([name, value]) => {
      const p = at(value, { ...s.walk, depth: s.walk.depth + 1 });
      if (!p) return el('li', {}, el('code', { className: ['api-name'] }, name));
      const pm = merged(p);
      const nested =
        !p.cycle && p.walk.depth < MAX_DEPTH && (isObject(pm.schema.properties) || isObject(pm.schema.items) || alternativesOf(pm.schema))
          ? schemaBody(pm, describe)
          : p.cycle
            ? el('p', { className: ['api-cycle'] }, `${p.name ?? name} (recursive: described above)`)
            : undefined;
      // a nested schema shows its type itself; a plain one shows it here
      const showType = !nested || p.cycle || isObject(pm.schema.properties);
      return el(
        'li',
        { className: ['api-property'] },
        el(
          'div',
          { className: ['api-property-head'] },
          el('code', { className: ['api-name'] }, name),
          showType ? [' ', el('span', { className: ['api-type'] }, (isObject(pm.schema.properties) && p.name) || typeLabel(pm))] : undefined,
          required.has(name) ? [' ', el('span', { className: ['api-required'] }, 'required')] : undefined,
          pm.schema.deprecated === true ? [' ', el('span', { className: ['api-deprecated'] }, 'deprecated')] : undefined,
        ),
        p.cycle ? undefined : constraints(pm.schema),
        typeof pm.schema.description === 'string' && !p.cycle ? describe(pm.schema.description) : undefined,
        nested,
      );
    }),
  );
}

/** Enum values, default and bounds, as a short line. */
function constraints(schema: Json): Element | undefined {
  const parts: Children[] = [];
  if (Array.isArray(schema.enum) && schema.enum.length) {
    parts.push('Possible values: ', ...schema.enum.slice(0, 30).flatMap((v, i) => [i ? ', ' : '', el('code', {}, JSON.stringify(v))]));
  }
  const add = (label: string, v: unknown) => {
    if (v === undefined) return;
    if (parts.length) parts.push('; ');
    parts.push(`${label} `, el('code', {}, JSON.stringify(v)));
  };
  add('default', schema.default);
  add('minimum', schema.minimum);
  add('maximum', schema.maximum);
  add('max length', schema.maxLength);
  add('max items', schema.maxItems);
  add('pattern', schema.pattern);
  return parts.length ? el('p', { className: ['api-constraints'] }, parts) : undefined;
}

const STRING_EXAMPLES: Record<string, string> = {
  'date-time': '2024-01-01T00:00:00Z',
  date: '2024-01-01',
  email: 'name@example.com',
  uri: 'https://example.com',
  url: 'https://example.com',
  uuid: '00000000-0000-0000-0000-000000000000',
  hostname: 'example.com',
  ipv4: '192.0.2.1',
};

/**
 * An example of a schema's value: its own `example` (or first `examples`, `default`, `const`, first
 * enum value), else one made from its type — small and the same every time. Cycles end in `{}`.
 */
export function exampleOf(value: unknown, file: ApiSpecFile, doc: SpecDocument): unknown {
  return example(at(value, { doc, file, seen: new Set(), depth: 0, budget: { left: MAX_SCHEMAS_OPENED } }));
}

function example(start: SchemaAt | undefined): unknown {
  if (!start) return undefined;
  if (start.cycle) return undefined;
  const s = merged(start);
  const schema = s.schema;
  if (schema.example !== undefined) return schema.example;
  if (Array.isArray(schema.examples) && schema.examples.length) return schema.examples[0];
  if (schema.default !== undefined) return schema.default;
  if (schema.const !== undefined) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length) return schema.enum[0];
  const next = (v: unknown) => at(v, { ...s.walk, depth: s.walk.depth + 1 });
  if (s.walk.depth > MAX_DEPTH) return undefined;
  const alternatives = alternativesOf(schema);
  if (alternatives && !isObject(schema.properties)) return example(next(alternatives[0]));
  const type = Array.isArray(schema.type) ? (schema.type as string[]).find((t) => t !== 'null') : schema.type;
  if (type === 'array' || (type === undefined && schema.items !== undefined)) {
    const item = example(next(schema.items));
    return item === undefined ? [] : [item];
  }
  if (type === 'object' || isObject(schema.properties)) {
    const out: Json = {};
    for (const [name, v] of Object.entries(isObject(schema.properties) ? schema.properties : {}).slice(0, MAX_PROPERTIES)) {
      const x = example(next(v));
      if (x !== undefined) out[name] = x;
    }
    return out;
  }
  switch (type) {
    case 'string':
      return (typeof schema.format === 'string' && STRING_EXAMPLES[schema.format]) || 'text';
    case 'integer':
      return typeof schema.minimum === 'number' ? Math.ceil(schema.minimum) : 1;
    case 'number':
      return typeof schema.minimum === 'number' ? schema.minimum : 1.5;
    case 'boolean':
      return true;
    case 'null':
      return null;
    default:
      return undefined;
  }
}
