// The fuzzer's per-operation Schemathesis settings, read off a served document (tools/fuzz/operation-settings.js).
import { join } from 'node:path';

interface Settings {
  sections: string[];
  refusing: string[];
  recursiveBodies: string[];
}
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { operationSettings, reach } = require(join(__dirname, '../fuzz/operation-settings')) as {
  operationSettings(doc: unknown): Settings;
  reach(doc: unknown, schema: unknown): { recursive: boolean; schemas: number };
};

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const body = (schema: unknown) => ({ required: true, content: { 'application/json': { schema } } });

/** A document node holds nodes of any of `kinds` kinds, each of which holds nodes again (as the official JSONDocument does). */
function documentSchemas(kinds: number) {
  const schemas: Record<string, unknown> = { Node: { oneOf: Array.from({ length: kinds }, (_, i) => ref(`Kind${i}`)) } };
  for (let i = 0; i < kinds; i++)
    schemas[`Kind${i}`] = { type: 'object', properties: { type: { const: `kind${i}` }, nodes: { type: 'array', items: ref('Node') } }, examples: [{ type: `kind${i}` }] };
  return schemas;
}

const doc = {
  openapi: '3.1.0',
  paths: {
    '/comments': { post: { operationId: 'postComment', requestBody: body({ type: 'object', properties: { document: ref('Node') } }), responses: { 201: {} } } },
    '/redirects': { post: { operationId: 'postRedirect', requestBody: body(ref('Filter')), responses: { 201: {}, 400: {}, 404: {} } } },
    '/spaces/{spaceId}/content/import': { post: { operationId: 'importContent', responses: { 200: {} } } },
    '/things': { get: { operationId: 'listThings', responses: { 200: {} } }, parameters: [] },
  },
  components: {
    schemas: {
      ...documentSchemas(30),
      // a small recursion: a filter of filters
      Filter: { type: 'object', properties: { and: { type: 'array', items: ref('Filter') } } },
    },
  },
};

describe("the fuzzer's per-operation settings", () => {
  test('a body recursive through many schemas goes without the examples and coverage phases; a small recursion keeps them', () => {
    expect(reach(doc, doc.paths['/comments'].post.requestBody.content['application/json'].schema)).toEqual({ recursive: true, schemas: 31 });
    expect(reach(doc, ref('Filter'))).toEqual({ recursive: true, schemas: 1 });
    const settings = operationSettings(doc);
    expect(settings.recursiveBodies).toEqual(['POST /comments']);
    const comment = settings.sections.find((s) => s.includes('"postComment"'));
    expect(comment).toContain('phases.examples.enabled = false');
    expect(comment).toContain('phases.coverage.enabled = false');
  });

  test('declared refusals of schema-valid requests are expected; long operations get a longer request timeout; the rest has no section', () => {
    const settings = operationSettings(doc);
    expect(settings.refusing).toEqual(['POST /redirects']);
    expect(settings.sections.find((s) => s.includes('"postRedirect"'))).toContain(
      'checks.positive_data_acceptance.expected-statuses = ["2xx","3xx","401","403","404","409","429","5xx","400"]',
    );
    expect(settings.sections.find((s) => s.includes('"importContent"'))).toContain('request-timeout = 660');
    expect(settings.sections.some((s) => s.includes('listThings'))).toBe(false);
    // `parameters` beside the methods of a path is no operation
    expect(settings.sections).toHaveLength(3);
  });
});
