import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { JsonSchema, RouteRegistry } from '@bindery/gateway/http';
import type { IdentityClients } from '@bindery/identity/client';
import { identityRoutes } from './identity-routes';

/** Every string schema in a request schema, with where it is. */
function strings(schema: unknown, where: string, out: Array<[string, JsonSchema]> = []): Array<[string, JsonSchema]> {
  if (Array.isArray(schema)) schema.forEach((s, i) => strings(s, `${where}[${i}]`, out));
  else if (schema && typeof schema === 'object') {
    const s = schema as JsonSchema;
    if (s.type === 'string') out.push([where, s]);
    for (const [k, v] of Object.entries(s)) if (typeof v === 'object') strings(v, `${where}.${k}`, out);
  }
  return out;
}

describe("identity routes' request schemas", () => {
  const registry = new RouteRegistry().add(...identityRoutes({} as IdentityClients, { publicUrl: 'http://x', appUrl: 'http://x' } as never));
  const all = registry.routes.flatMap((r) => [
    ...Object.entries(r.params ?? {}).flatMap(([n, s]) => strings(s, `${r.operationId} path.${n}`)),
    ...Object.entries(r.query ?? {}).flatMap(([n, s]) => strings(s, `${r.operationId} query.${n}`)),
    ...strings(r.body, `${r.operationId} body`),
  ]);

  it('say of every string what the gateway takes: a format, a fixed value, or a pattern refusing NUL', () => {
    expect(all.length).toBeGreaterThan(40);
    const ajv = addFormats(new Ajv({ strict: false }));
    const loose = all.filter(([, s]) => {
      if (s.format || s.enum || s.const !== undefined) return false;
      if (typeof s.pattern !== 'string') return true;
      const valid = ajv.compile(s);
      return valid('a\u0000b') || valid('\u0000');
    });
    expect(loose.map(([where]) => where)).toEqual([]);
  });
});
