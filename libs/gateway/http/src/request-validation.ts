import Ajv, { ErrorObject, ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { invalid } from '@bindery/platform/errors';
import { JsonSchema, RouteSpec } from './route-registry';
import { JSON_VALUE_ID, jsonValueSchema } from './schemas';
import { documentSchemasForValidation } from './document-schema';

// Bodies are validated as sent: no coercion, no defaults, no silent removal, unknown fields refused.
// `verbose` keeps the failing schema in each error, so a refused pattern is explained by its description;
// `discriminator` picks the one branch of a oneOf a tagged object is meant for, so errors name only it.
const bodyAjv = addFormats(new Ajv({ strict: true, allErrors: true, removeAdditional: false, coerceTypes: false, useDefaults: false, verbose: true, discriminator: true }));
bodyAjv.addSchema({ $id: JSON_VALUE_ID, ...jsonValueSchema('#') });
// The official document schemas (request schemas refer to them as JSON_DOCUMENT), compiled once with
// the first route that refers to them. `icon` is the spec's own format: any icon name is taken.
bodyAjv.addFormat('icon', true);
bodyAjv.addSchema(documentSchemasForValidation());
// Path and query values arrive as text; numbers and booleans there are read from it.
const queryAjv = addFormats(new Ajv({ strict: true, allErrors: true, removeAdditional: false, coerceTypes: true, useDefaults: false, verbose: true }));

function describe(where: string, e: ErrorObject): string {
  const path = e.instancePath.split('/').filter(Boolean).join('.');
  const field = path ? `${where}.${path}` : where;
  if (e.keyword === 'additionalProperties') return `${field === where ? where : field} has an unknown field "${(e.params as { additionalProperty: string }).additionalProperty}"`;
  if (e.keyword === 'required') return `${where}${path ? '.' + path : ''}.${(e.params as { missingProperty: string }).missingProperty} is required`;
  const description = (e.parentSchema as { description?: unknown } | undefined)?.description;
  // A pattern or a fixed value says what it wants in its description ("must be <description>").
  if ((e.keyword === 'pattern' || e.keyword === 'const') && typeof description === 'string') return `${field} must be ${description}`;
  // A node of a kind the union does not have (the official document's blocks, inlines, marks …).
  if (e.keyword === 'discriminator' && typeof description === 'string') return `${field}.${(e.params as { tag: string }).tag} must be one of ${description}`;
  if (e.keyword === 'enum') return `${field} must be one of ${(e.params as { allowedValues: unknown[] }).allowedValues.map((v) => JSON.stringify(v)).join(', ')}`;
  return `${field} ${e.message}`;
}

const within = (path: string, outer: string) => path === outer || path.startsWith(`${outer}/`);
const depth = (path: string) => path.split('/').length;

/**
 * The errors worth showing: anyOf/oneOf report every branch's complaints, so under a value no branch
 * took only the deepest ones are kept (the branch that got furthest: for a document, the node that
 * is wrong rather than "markdown is required" from the Markdown branch beside it).
 */
function closest(errors: ErrorObject[]): ErrorObject[] {
  const unions = errors.filter((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf').map((e) => e.instancePath);
  const outermost = (path: string) => unions.filter((u) => within(path, u)).sort((a, b) => depth(a) - depth(b))[0];
  const deepest = new Map<string, number>();
  for (const e of errors) {
    const u = outermost(e.instancePath);
    if (u !== undefined) deepest.set(u, Math.max(deepest.get(u) ?? 0, depth(e.instancePath)));
  }
  return errors.filter((e) => {
    if (e.keyword === 'anyOf' || e.keyword === 'oneOf') return false;
    const u = outermost(e.instancePath);
    return u === undefined || depth(e.instancePath) === deepest.get(u);
  });
}

function messageOf(where: string, errors: ErrorObject[] | null | undefined): string {
  // anyOf/oneOf repeat each branch's complaint; keep the most specific ones once.
  const seen = new Set<string>();
  for (const e of closest(errors ?? [])) seen.add(describe(where, e));
  return [...seen].slice(0, 5).join('; ') || `${where} is not valid`;
}

export interface CompiledValidators {
  params?: ValidateFunction;
  query?: ValidateFunction;
  body?: ValidateFunction;
  bodyOptional?: boolean;
}

function objectOf(properties: Record<string, JsonSchema>, required: string[] = []): JsonSchema {
  return { type: 'object', additionalProperties: false, properties, ...(required.length ? { required } : {}) };
}

export function compileValidators(route: RouteSpec): CompiledValidators {
  return {
    params: route.params ? queryAjv.compile(objectOf(route.params)) : undefined,
    query: queryAjv.compile(objectOf(route.query ?? {}, route.requiredQuery)),
    body: route.body ? bodyAjv.compile(route.body) : undefined,
    bodyOptional: route.bodyOptional,
  };
}

/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * The first string in `value` (at any depth, keys included) that holds a NUL character or is not
 * well-formed UTF-16 (a lone surrogate), as the path of the field; undefined when there is none.
 * Such text cannot be stored faithfully or shown safely, so it is refused before anything else.
 */
export function unsafeTextAt(value: unknown, where: string): string | undefined {
  if (typeof value === 'string') return value.includes('\u0000') || LONE_SURROGATE.test(value) ? where : undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = unsafeTextAt(value[i], `${where}.${i}`);
      if (found) return found;
    }
  } else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      const found = unsafeTextAt(k, `${where} (a field name)`) ?? unsafeTextAt(v, `${where}.${k}`);
      if (found) return found;
    }
  }
  return undefined;
}

/** Validates one request; a failure is a 400 naming the field. Query values are coerced in place. */
export function validateRequest(v: CompiledValidators, req: { params: Record<string, string>; query: Record<string, unknown>; body: unknown; hasBody: boolean }) {
  const unsafe = unsafeTextAt(req.params, 'path') ?? unsafeTextAt(req.query, 'query') ?? unsafeTextAt(req.body, 'body');
  if (unsafe) throw invalid(`${unsafe} contains a NUL character or invalid UTF-16 (a lone surrogate).`);
  if (v.params && !v.params(req.params)) throw invalid(messageOf('path', v.params.errors));
  if (v.query && !v.query(req.query)) throw invalid(messageOf('query', v.query.errors));
  if (v.body) {
    if (!req.hasBody) {
      if (v.bodyOptional) return;
      throw invalid('A JSON request body is required (Content-Type: application/json).');
    }
    if (!v.body(req.body)) throw invalid(messageOf('body', v.body.errors));
  } else if (req.hasBody && req.body !== undefined && !(typeof req.body === 'object' && req.body !== null && Object.keys(req.body).length === 0)) {
    throw invalid('This endpoint takes no request body.');
  }
}
