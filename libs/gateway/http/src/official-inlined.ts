import type { JsonSchema } from './json-schema';
import vendored from './generated/official-schemas.json';

/**
 * Official schemas written out whole, from the newest release: request bodies, and the success
 * responses of operations whose newest shape differs from 0.130.0's under the same component names.
 *
 * Request bodies are vendored by tools/openapi/vendor-schemas.js from the routes'
 * `officialRequest('<operationId>')` calls (docs/openapi-document.md), made strict for validation:
 * references are written out in place (request schemas stand alone), an object with properties
 * refuses fields it does not name (the official schemas leave them open; the gateway refuses
 * unknown fields everywhere), a one-branch `allOf` is its branch, and the `emoji` format, which no
 * validator knows, is left to the field's length limit.
 */
interface Vendored {
  requests?: Record<string, { release: string; schema: JsonSchema }>;
  latestResponses?: Record<string, { release: string; schema: JsonSchema }>;
  schemas: Record<string, JsonSchema>;
}

const VENDORED = vendored as unknown as Vendored;
const REF_PREFIX = '#/components/schemas/';

function strict(node: unknown, trail: string[]): unknown {
  if (Array.isArray(node)) return node.map((n) => strict(n, trail));
  if (!node || typeof node !== 'object') return node;
  const src = node as Record<string, unknown>;
  if (typeof src.$ref === 'string') {
    const name = src.$ref.slice(REF_PREFIX.length);
    if (trail.includes(name)) throw new Error(`official schema ${name} is recursive: it cannot be written out in a request schema`);
    const target = VENDORED.schemas[name];
    if (!target) throw new Error(`official schema ${name} is not vendored: run npm run openapi:vendor`);
    const { $ref: _ref, ...annotations } = src;
    return { ...(strict(target, [...trail, name]) as Record<string, unknown>), ...annotations };
  }
  let out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(src)) {
    if (k === 'properties' && v && typeof v === 'object') {
      out[k] = Object.fromEntries(Object.entries(v).map(([name, s]) => [name, strict(s, trail)]));
    } else if (k === 'format' && v === 'emoji') continue;
    else out[k] = strict(v, trail);
  }
  if (Array.isArray(out.allOf) && out.allOf.length === 1) {
    const { allOf, ...rest } = out;
    out = { ...(allOf[0] as Record<string, unknown>), ...rest };
  }
  if (out.properties && !out.type) out.type = 'object';
  if (out.properties && out.additionalProperties === undefined) out.additionalProperties = false;
  return out;
}

/** The official request body of an operation, written out and strict (see above). */
export function officialRequest(operationId: string): JsonSchema {
  const request = VENDORED.requests?.[operationId];
  if (!request) throw new Error(`the official request of ${operationId} is not vendored: run npm run openapi:vendor`);
  return strict(request.schema, []) as JsonSchema;
}

/**
 * The success response of an operation as its newest release declares it, written out (no
 * references): for operations whose 0.130.0 shape is another (the site customization's).
 */
export function officialLatestResponse(operationId: string): JsonSchema {
  const response = VENDORED.latestResponses?.[operationId];
  if (!response) throw new Error(`the newest official response of ${operationId} is not vendored: run npm run openapi:vendor`);
  return JSON.parse(JSON.stringify(response.schema)) as JsonSchema;
}
