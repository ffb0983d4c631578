import type { Document, DocumentBody } from './generated/bindery/common/v1/document';

/**
 * A GitBook document (the official JSONDocument, as JSON) ⇄ its message (bindery.common.v1.Document),
 * the one mapping every edge uses. Lossless for any JSON object: what a message has no typed field
 * for goes to `extra`, and the order of an object's fields to `fieldOrder` when it is not the usual
 * one (see document.proto), so `documentFromMessage(documentToMessage(d))` is `d`, byte for byte as JSON.
 */
export type JsonObject = Record<string, unknown>;

type Kind = 'string' | 'bool' | 'object' | 'list';
interface Shape {
  /** the typed fields, in their usual order (the order Bindery writes them in); a list field names the shape of its items */
  fields: Array<[name: string, kind: Kind, items?: () => Shape]>;
  /** lists the JSON has even when empty (required by the official schema) */
  alwaysListed: string[];
  /** typed fields that usually come after the others' and `extra`'s (a node's `key`, given last) */
  last?: string[];
}

const MARK: Shape = {
  fields: [
    ['object', 'string'],
    ['type', 'string'],
    ['data', 'object'],
  ],
  alwaysListed: [],
};
const LEAF: Shape = {
  fields: [
    ['object', 'string'],
    ['text', 'string'],
    ['marks', 'list', () => MARK],
  ],
  alwaysListed: ['marks'],
};
const NODE: Shape = {
  fields: [
    ['object', 'string'],
    ['type', 'string'],
    ['data', 'object'],
    ['nodes', 'list', () => NODE],
    ['leaves', 'list', () => LEAF],
    ['isVoid', 'bool'],
    ['fragments', 'list', () => FRAGMENT],
    ['key', 'string'],
  ],
  alwaysListed: [],
  last: ['key'],
};
const FRAGMENT: Shape = {
  fields: [
    ['object', 'string'],
    ['fragment', 'string'],
    ['type', 'string'],
    ['nodes', 'list', () => NODE],
    ['key', 'string'],
  ],
  alwaysListed: ['nodes'],
  last: ['key'],
};
const DOCUMENT: Shape = {
  fields: [
    ['object', 'string'],
    ['data', 'object'],
    ['nodes', 'list', () => NODE],
  ],
  alwaysListed: ['nodes'],
};

const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

function fits(kind: Kind, v: unknown): boolean {
  if (kind === 'string') return typeof v === 'string';
  if (kind === 'bool') return typeof v === 'boolean';
  if (kind === 'object') return isObject(v);
  return Array.isArray(v) && v.every(isObject);
}

/**
 * The generated Struct code sets its fields by assignment, so a field named `__proto__` (JSON may
 * have one) would be lost: such names cross with one more leading underscore (`__proto__` →
 * `___proto__`, `___proto__` → `____proto__` …), which the way back removes.
 */
const PROTO_LIKE = /^_*__proto__$/;
function renameKeys(value: unknown, rename: (k: string) => string): unknown {
  if (Array.isArray(value)) return value.map((v) => renameKeys(v, rename));
  if (!isObject(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [PROTO_LIKE.test(k) ? rename(k) : k, renameKeys(v, rename)]));
}
const toStruct = (o: JsonObject) => renameKeys(o, (k) => `_${k}`) as JsonObject;
const fromStruct = (o: JsonObject) => renameKeys(o, (k) => k.slice(1)) as JsonObject;

type Message = { extra?: JsonObject; fieldOrder: string[] } & Record<string, unknown>;

/**
 * The fields the JSON has when `fieldOrder` is empty: the typed ones set (lists when not empty, or
 * always listed), then `extra`'s, then the typed ones that come last.
 */
function usualOrder(shape: Shape, m: Message, extra: JsonObject | undefined): string[] {
  const typed = shape.fields
    .filter(([name, kind]) => (kind === 'list' ? (m[name] as unknown[]).length > 0 || shape.alwaysListed.includes(name) : m[name] !== undefined))
    .map(([name]) => name);
  const last = shape.last ?? [];
  return [...typed.filter((k) => !last.includes(k)), ...Object.keys(extra ?? {}), ...typed.filter((k) => last.includes(k))];
}

function toMessage(shape: Shape, json: JsonObject): Message {
  const m: Message = { fieldOrder: [] };
  for (const [name, kind] of shape.fields) m[name] = kind === 'list' ? [] : undefined;
  const extra: Array<[string, unknown]> = [];
  for (const [k, v] of Object.entries(json)) {
    const field = shape.fields.find(([name]) => name === k);
    if (!field || !fits(field[1], v)) extra.push([k, v]);
    else m[k] = field[1] === 'list' ? (v as JsonObject[]).map((item) => toMessage(field[2]!(), item)) : field[1] === 'object' ? toStruct(v as JsonObject) : v;
  }
  const rest = extra.length ? Object.fromEntries(extra) : undefined;
  m.extra = rest && toStruct(rest);
  const keys = Object.keys(json);
  const usual = usualOrder(shape, m, rest);
  if (usual.length !== keys.length || usual.some((k, i) => k !== keys[i])) m.fieldOrder = keys;
  return m;
}

function fromMessage(shape: Shape, m: Message): JsonObject {
  const extra = m.extra && fromStruct(m.extra);
  const keys = m.fieldOrder.length ? m.fieldOrder : usualOrder(shape, m, extra);
  return Object.fromEntries(
    keys.map((k) => {
      if (extra && Object.prototype.hasOwnProperty.call(extra, k)) return [k, extra[k]];
      const field = shape.fields.find(([name]) => name === k);
      const v = m[k];
      if (field?.[1] === 'list') return [k, (v as Message[]).map((item) => fromMessage(field[2]!(), item))];
      return [k, field?.[1] === 'object' ? fromStruct(v as JsonObject) : v];
    }),
  );
}

export function documentToMessage(document: JsonObject): Document {
  return toMessage(DOCUMENT, document) as unknown as Document;
}

export function documentFromMessage(message: Document): JsonObject {
  return fromMessage(DOCUMENT, message as unknown as Message);
}

/** The official Document as a body: `{document}`, `{markdown}` or `{}`. */
export function bodyToMessage(body: { document?: JsonObject; markdown?: string }): DocumentBody {
  if (body.document !== undefined) return { document: documentToMessage(body.document) };
  if (body.markdown !== undefined) return { markdown: body.markdown };
  return {};
}

export function bodyFromMessage(message: DocumentBody): { document: JsonObject } | { markdown: string } | Record<string, never> {
  if (message.document) return { document: documentFromMessage(message.document) };
  if (message.markdown !== undefined) return { markdown: message.markdown };
  return {};
}
