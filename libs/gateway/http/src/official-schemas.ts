import type { JsonSchema } from './json-schema';
import vendored from './generated/official-schemas.json';

/**
 * The official GitBook response schemas the gateway serves in /openapi.json, vendored by
 * tools/openapi/vendor-schemas.js (npm run openapi:vendor) into generated/official-schemas.json:
 * nothing here reads @gitbook/api at run time. See docs/openapi-document.md.
 */
interface Vendored {
  operations: Record<string, { release: string; method: string; path: string; status: number; schema: JsonSchema }>;
  schemas: Record<string, JsonSchema>;
}

const VENDORED = vendored as unknown as Vendored;
const REF_PREFIX = '#/components/schemas/';

const copy = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

/**
 * The success response schema of an official operation (by its official operationId), with
 * `#/components/schemas/…` references that the document resolves. The generator finds these calls
 * in the route sources: run `npm run openapi:vendor` after adding one.
 */
export function officialResponse(operationId: string): JsonSchema {
  const op = VENDORED.operations[operationId];
  if (!op) throw new Error(`official operation ${operationId} is not vendored: run npm run openapi:vendor`);
  return copy(op.schema);
}

/** A reference to an official component schema (e.g. `Organization`). */
export function officialSchema(name: string): JsonSchema {
  if (!VENDORED.schemas[name]) throw new Error(`official schema ${name} is not vendored: run npm run openapi:vendor`);
  return { $ref: `${REF_PREFIX}${name}` };
}

/** Every `#/components/schemas/…` name the schemas reference. */
export function referencedSchemaNames(node: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(node)) node.forEach((n) => referencedSchemaNames(n, into));
  else if (node && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) {
      if (k === '$ref' && typeof v === 'string' && v.startsWith(REF_PREFIX)) into.add(v.slice(REF_PREFIX.length));
      else referencedSchemaNames(v, into);
    }
  }
  return into;
}

/**
 * The component schemas the given schemas need, transitively: `own` (the gateway's schemas) first,
 * then the vendored official ones. Throws on a reference neither has.
 */
export function componentSchemasFor(schemas: unknown[], own: Record<string, JsonSchema> = {}): Record<string, JsonSchema> {
  const out: Record<string, JsonSchema> = {};
  const pending = [...referencedSchemaNames(schemas)];
  while (pending.length) {
    const name = pending.pop()!;
    if (out[name]) continue;
    const schema = own[name] ?? VENDORED.schemas[name];
    if (!schema) throw new Error(`schema ${name} is referenced but neither the gateway nor the vendored official schemas define it`);
    out[name] = copy(schema);
    pending.push(...referencedSchemaNames(schema));
  }
  return Object.fromEntries(
    Object.keys(out)
      .sort()
      .map((k) => [k, out[k]]),
  );
}
