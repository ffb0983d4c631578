import { CURSOR_PATTERN, DEFAULT_LIMIT, MAX_LIMIT } from '@bindery/shared/pagination';
import type { JsonSchema } from './json-schema';

/** Schema fragments shared by routes (the spec's MemberRole, list parameters …). */
export const ROLE = { type: 'string', enum: ['admin', 'create', 'review', 'edit', 'comment', 'read'] };
export const ROLE_OR_GUEST = { anyOf: [ROLE, { type: 'null' }] };
export const ID_PARAM = { type: 'string', minLength: 1, maxLength: 128 };
/**
 * The list parameters, exactly as the lists take them: `page` is a cursor of the form the lists hand
 * out in `next.page` (any string of that form is accepted), `limit` 0 (or absent) means the default.
 */
export const LIST_QUERY: Record<string, JsonSchema> = {
  page: {
    type: 'string',
    minLength: 1,
    maxLength: 512,
    pattern: CURSOR_PATTERN,
    description: 'the cursor of a page of this list, as its previous page gave it in next.page',
  },
  limit: { type: 'integer', minimum: 0, maximum: MAX_LIMIT, description: `The number of results per page, 1 to ${MAX_LIMIT}; 0 or absent: ${DEFAULT_LIMIT}.` },
};

// Text rules, written with explicit character classes so that every regex engine (ajv's, and a
// fuzzer's in another language) reads them alike. Lone surrogates are not Unicode text at all (no
// JSON Schema string holds one, and RFC 7493 forbids them); the gateway refuses them (unsafeTextAt),
// but a pattern cannot name them portably, so the patterns name NUL only.
const NOT_TEXT = '\\u0000';
/** What String.prototype.trim removes (White_Space and line terminators). */
const TRIMMED = '\\t\\n\\v\\f\\r \\u00A0\\u1680\\u2000-\\u200A\\u2028\\u2029\\u202F\\u205F\\u3000\\uFEFF';

/**
 * Text as the gateway takes it anywhere (see unsafeTextAt): no NUL character. RouteRegistry adds it
 * to every string schema that has no pattern, format, enum or const of its own.
 */
export const TEXT_PATTERN = `^[^${NOT_TEXT}]*$`;

/**
 * Text that identity trims, then requires `min` (1 or 2) to `max` characters of: at least `min`
 * characters that are not white space, no NUL, and at most `max` in all.
 */
export function trimmedText(min: 1 | 2, max: number): JsonSchema {
  const solid = `[^${TRIMMED}${NOT_TEXT}]`;
  const pattern = min === 1 ? `^[${TRIMMED}]*${solid}[^${NOT_TEXT}]*$` : `^[${TRIMMED}]*${solid}[^${NOT_TEXT}]*${solid}[${TRIMMED}]*$`;
  return { type: 'string', minLength: min, maxLength: max, pattern, description: `text of ${min} to ${max} characters, not all white space` };
}

/**
 * Free-form JSON in a request (a document's `data`, its nodes): request schemas name it by this id,
 * the served document as `#/components/schemas/JsonValue` (openapi-document.ts).
 */
export const JSON_VALUE_ID = 'https://schemas.bindery.invalid/json-value';
export const JSON_VALUE: JsonSchema = { $ref: JSON_VALUE_ID };

/** Any JSON value whose text and field names hold no NUL, at any depth; `self` is how it names itself. */
export function jsonValueSchema(self: string): JsonSchema {
  return {
    description: 'any JSON value without a NUL character in its text or field names',
    anyOf: [
      { type: 'null' },
      { type: 'boolean' },
      { type: 'number' },
      { type: 'string', pattern: TEXT_PATTERN },
      { type: 'array', items: { $ref: self } },
      { type: 'object', propertyNames: { pattern: TEXT_PATTERN }, additionalProperties: { $ref: self } },
    ],
  };
}

/**
 * The schema with TEXT_PATTERN on every string that has no pattern, format, enum or const (those
 * are stricter already), and on every object's field names, at any depth. Fields an object leaves
 * open, and items an array leaves open, are JSON_VALUE: the gateway refuses NUL in any text or
 * field name (unsafeTextAt), and the schema says so.
 */
export function withTextRule(schema: JsonSchema): JsonSchema {
  if (Array.isArray(schema)) return schema.map((s) => withTextRule(s)) as unknown as JsonSchema;
  if (!schema || typeof schema !== 'object') return schema;
  const out: JsonSchema = {};
  for (const [k, v] of Object.entries(schema)) {
    if (['properties', 'patternProperties'].includes(k) && v && typeof v === 'object') {
      out[k] = Object.fromEntries(Object.entries(v as Record<string, JsonSchema>).map(([name, s]) => [name, withTextRule(s)]));
    } else if (['items', 'additionalProperties', 'propertyNames', 'anyOf', 'oneOf', 'allOf', 'not'].includes(k) && v && typeof v === 'object') {
      out[k] = withTextRule(v as JsonSchema);
    } else out[k] = v;
  }
  if (out.type === 'object') {
    if (!('propertyNames' in out)) out.propertyNames = { pattern: TEXT_PATTERN };
    if (out.additionalProperties === undefined || out.additionalProperties === true) out.additionalProperties = JSON_VALUE;
  }
  if (out.type === 'array' && out.items === undefined) out.items = JSON_VALUE;
  const free = out.type === 'string' && !['pattern', 'format', 'enum', 'const'].some((k) => k in out);
  return free ? { ...out, pattern: TEXT_PATTERN } : out;
}

export function object(properties: Record<string, JsonSchema>, required: string[] = []): JsonSchema {
  return { type: 'object', additionalProperties: false, properties, ...(required.length ? { required } : {}) };
}

/** The list envelope of the API. */
export function listOf(item: JsonSchema): JsonSchema {
  return {
    type: 'object',
    required: ['items', 'count'],
    properties: { items: { type: 'array', items: item }, count: { type: 'number' }, next: { type: 'object', properties: { page: { type: 'string' } } } },
  };
}

export function toList<T>(items: T[], page: { count: number; nextPage?: string } | undefined) {
  const out: { items: T[]; count: number; next?: { page: string } } = { items, count: page?.count ?? items.length };
  if (page?.nextPage) out.next = { page: page.nextPage };
  return out;
}

/** The list parameters of a query as the services take them (`page` cursor, `limit`; 0 = default). */
export const pageOf = (query: Record<string, unknown>): { page: string; limit: number } => ({ page: (query.page as string) ?? '', limit: (query.limit as number) ?? 0 });
