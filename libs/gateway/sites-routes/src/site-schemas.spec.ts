import { compileValidators, JsonSchema, RouteRegistry, validateRequest } from '@bindery/gateway/http';
import { assertCompilable } from './adaptive-schema-routes';
import { CREATE_SITE, UPDATE_ADAPTIVE_SCHEMA, UPDATE_SITE } from './site-schemas';

function refusalOf(body: JsonSchema) {
  const [route] = new RouteRegistry().add({
    method: 'post',
    path: '/x',
    operationId: 'x',
    summary: '',
    tags: [],
    body,
    success: { status: 200, description: '' },
    handler: async () => ({}),
  }).routes;
  const v = compileValidators(route);
  return (value: unknown) => {
    try {
      validateRequest(v, { params: {}, query: {}, body: value, hasBody: true });
      return undefined;
    } catch (err) {
      return (err as Error).message;
    }
  };
}

const claims = (properties: object) => ({ type: 'object', properties, additionalProperties: false });
const nest = (depth: number): object =>
  depth === 0 ? { type: 'boolean', description: 'leaf' } : { type: 'object', description: 'level', properties: { x: nest(depth - 1) }, additionalProperties: false };

describe('sites request schemas', () => {
  test('a site is created from space ids or a new space, with known types and visibilities', () => {
    const refusal = refusalOf(CREATE_SITE);
    expect(refusal({})).toBeUndefined();
    expect(refusal({ type: 'premium', title: 'Docs', visibility: 'share-link', spaces: ['a', 'b'] })).toBeUndefined();
    expect(refusal({ spaces: 'sample' })).toBeUndefined();
    expect(refusal({ spaces: 'full' })).toMatch(/spaces/);
    expect(refusal({ title: ' ' })).toMatch(/title/);
    expect(refusal({ hostname: 'docs.example.com' })).toMatch(/unknown field "hostname"/);
  });

  test('an update takes a slug basename and a proxy origin or null', () => {
    const refusal = refusalOf(UPDATE_SITE);
    expect(refusal({ basename: 'my-docs', proxy: 'example.com/docs', adaptiveContent: { enabled: true } })).toBeUndefined();
    expect(refusal({ proxy: null })).toBeUndefined();
    expect(refusal({ basename: 'My Docs' })).toMatch(/basename must be lower-case letters/);
    expect(refusal({ proxy: 'https://example.com/docs' })).toMatch(/proxy/);
    expect(refusal({ adaptiveContent: {} })).toMatch(/enabled is required/);
  });

  test('the adaptive schema has the official shape, claims nesting at most 4 deep', () => {
    const refusal = refusalOf(UPDATE_ADAPTIVE_SCHEMA);
    const unsigned = {
      type: 'object',
      description: 'Unsigned claims of the site visitor.',
      properties: { beta: { type: 'boolean', description: 'Beta' } },
      additionalProperties: false,
    };
    const full = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: {
        unsigned,
        plan: { type: 'string', enum: ['free', 'pro'], description: 'Plan' },
        name: { type: 'string', description: 'Name' },
        seats: { type: 'number', description: 'Seats' },
        tags: { type: 'array', description: 'Tags', items: { type: 'string', description: 'Tag' } },
        deep: nest(3),
      },
      additionalProperties: false,
    };
    expect(refusal({ jsonSchema: full })).toBeUndefined();
    expect(refusal({ jsonSchema: claims({ deep: nest(4) }) })).toBeDefined();
    expect(refusal({ jsonSchema: { ...full, additionalProperties: true } })).toBeDefined();
    expect(refusal({ jsonSchema: claims({ a: { type: 'boolean' } }) })).toBeDefined();
    expect(refusal({ jsonSchema: claims({ a: { type: 'integer', description: 'x' } }) })).toBeDefined();
    expect(refusal({ jsonSchema: claims({ unsigned: { ...unsigned, description: 'Other' } }) })).toBeDefined();
    expect(refusal({})).toMatch(/jsonSchema is required/);
    const many = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`c${i}`, { type: 'boolean', description: 'c' }]));
    expect(refusal({ jsonSchema: claims({ ...many(100), unsigned }) })).toBeUndefined();
    expect(refusal({ jsonSchema: claims(many(100)) })).toBeUndefined();
    expect(refusal({ jsonSchema: claims(many(101)) })).toBeDefined();
    expect(() => assertCompilable(full)).not.toThrow();
  });

  test('a schema ajv cannot compile is refused with its words', () => {
    expect(() => assertCompilable({ type: 'object', properties: { a: { type: 'no-such-type' } } })).toThrow(
      expect.objectContaining({ kind: 'invalid', message: expect.stringMatching(/^jsonSchema is not a JSON Schema that can be used: .+/) }),
    );
  });
});
