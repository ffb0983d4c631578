import { toHtml } from 'hast-util-to-html';
import { exampleOf, schemaList } from './openapi-schema';
import { SpecDocument } from './openapi-spec';

/**
 * Distinct schemas that each refer 60 times to the next one (no cycle: the cycle guard does not stop
 * them) would expand to 60^6 nodes: the list and the example stop at a budget instead of holding the
 * reader for minutes.
 */
test('a spec whose schemas multiply stops at a budget', () => {
  const schemas: Record<string, unknown> = {};
  for (let i = 0; i < 8; i += 1) {
    const properties = Object.fromEntries(Array.from({ length: 60 }, (_, p) => [`p${p}`, i < 7 ? { $ref: `#/components/schemas/S${i + 1}` } : { type: 'string' }]));
    schemas[`S${i}`] = { type: 'object', properties };
  }
  const file = { filename: 'openapi.json', isEntrypoint: true, specification: { openapi: '3.0.3', info: { title: 'Wide', version: '1' }, paths: {}, components: { schemas } } };
  const doc = new SpecDocument([file]);
  const list = schemaList({ $ref: '#/components/schemas/S0' }, file, doc, (md) => [{ type: 'text', value: md }]);
  const example = exampleOf({ $ref: '#/components/schemas/S0' }, file, doc);
  const html = toHtml(list!);
  // 2,000 schemas opened at most: the list stays within a few hundred kilobytes
  expect(html.length).toBeLessThan(1_000_000);
  expect((html.match(/api-property"/g) ?? []).length).toBeLessThanOrEqual(2000);
  expect(JSON.stringify(example).length).toBeLessThan(200_000);
});

test('allOf: the parts and the keywords beside them are listed as one object, in the list and the example', () => {
  const file = {
    filename: 'openapi.json',
    isEntrypoint: true,
    specification: {
      openapi: '3.0.3',
      info: { title: 'Pets', version: '1' },
      paths: {},
      components: {
        schemas: {
          Named: { type: 'object', required: ['name'], properties: { name: { type: 'string', example: 'Rex' } } },
          Pet: {
            description: 'A pet',
            allOf: [{ $ref: '#/components/schemas/Named' }, { type: 'object', properties: { tag: { type: 'string' } } }],
            properties: { id: { type: 'integer' } },
            required: ['id'],
          },
        },
      },
    },
  };
  const doc = new SpecDocument([file]);
  const html = toHtml(schemaList({ $ref: '#/components/schemas/Pet' }, file, doc, (md) => [{ type: 'text', value: md }])!);
  expect([...html.matchAll(/<code class="api-name">(\w+)<\/code>/g)].map((m) => m[1])).toEqual(['id', 'name', 'tag']);
  expect((html.match(/api-required/g) ?? []).length).toBe(2);
  expect(exampleOf({ $ref: '#/components/schemas/Pet' }, file, doc)).toEqual({ id: 1, name: 'Rex', tag: 'text' });
});
