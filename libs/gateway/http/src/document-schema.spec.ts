import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { JSON_DOCUMENT } from './document-schema';
import { buildOpenApiDocument } from './openapi-document';
import { compileValidators, validateRequest } from './request-validation';
import { RouteRegistry } from './route-registry';

const text = (t: string, marks: unknown[] = []) => ({ object: 'text', leaves: [{ object: 'leaf', text: t, marks }] });
const paragraph = (...nodes: unknown[]) => ({ object: 'block', type: 'paragraph', nodes });
const doc = (...nodes: unknown[]) => ({ object: 'document', data: {}, nodes });

const VALID = [
  doc(),
  doc(paragraph(text('plain'))),
  doc(
    { object: 'block', type: 'heading-1', key: 'h', data: {}, nodes: [text('Title', [{ object: 'mark', type: 'bold' }])] },
    paragraph(text('see '), { object: 'inline', type: 'link', data: { ref: { kind: 'url', url: 'https://example.com' } }, nodes: [text('here')] }),
    { object: 'block', type: 'list-unordered', nodes: [{ object: 'block', type: 'list-item', nodes: [paragraph(text('item'))] }] },
    { object: 'block', type: 'code', data: { syntax: 'js' }, nodes: [{ object: 'block', type: 'code-line', data: {}, nodes: [text('let a = 1;')] }] },
    { object: 'block', type: 'divider', isVoid: true, data: {} },
  ),
  { object: 'document', data: { schemaVersion: 1, anything: ['open'] }, nodes: [paragraph(text('x'))] },
];

const registry = new RouteRegistry().add({
  method: 'post',
  path: '/documents',
  operationId: 'postDocument',
  summary: '',
  tags: [],
  body: { type: 'object', additionalProperties: false, required: ['document'], properties: { document: JSON_DOCUMENT } },
  success: { status: 200, description: '' },
  handler: async () => ({}),
});
const validators = compileValidators(registry.routes[0]);
const refusal = (document: unknown) => {
  try {
    validateRequest(validators, { params: {}, query: {}, body: { document }, hasBody: true });
    return undefined;
  } catch (err) {
    return (err as Error).message;
  }
};

describe('documents in requests: the official JSONDocument', () => {
  it('takes documents of the official shape', () => {
    for (const d of VALID) expect({ d, refusal: refusal(d) }).toEqual({ d, refusal: undefined });
  });

  it('refuses arbitrary JSON, naming the first field that is wrong', () => {
    expect(refusal({ '': -6.9e16, 'M0u\u000f': null })).toBe('body.document.object is required; body.document.data is required; body.document.nodes is required');
    expect(refusal({ object: 'document', data: {}, nodes: [{}] })).toMatch(/^body\.document\.nodes\.0\.type must be one of "paragraph", "heading-1", /);
    expect(refusal(doc({ object: 'block', type: 'paragrap', nodes: [] }))).toMatch(/^body\.document\.nodes\.0\.type must be one of "paragraph", /);
    expect(refusal(doc(paragraph({ object: 'inline', type: 'lnk', nodes: [] })))).toMatch(/^body\.document\.nodes\.0\.nodes\.0\.type must be one of "link", /);
    expect(refusal(doc(paragraph({ object: 'txt', leaves: [] })))).toMatch(/^body\.document\.nodes\.0\.nodes\.0\.object must be one of "inline", "text"$/);
    expect(refusal(doc(paragraph({ object: 'text', leaves: [{ object: 'leaf', text: 1, marks: [] }] })))).toBe('body.document.nodes.0.nodes.0.leaves.0.text must be string');
    expect(refusal(doc(paragraph(text('x', [{ object: 'mark', type: 'bld' }]))))).toMatch(/^body\.document\.nodes\.0\.nodes\.0\.leaves\.0\.marks\.0\.type must be one of "bold", /);
    expect(refusal(doc({ object: 'block', type: 'heading-1', nodes: [text('x')] }))).toBe('body.document.nodes.0.data is required');
    expect(refusal(doc({ object: 'block', type: 'list-unordered', nodes: [paragraph(text('x'))] }))).toMatch(
      /^body\.document\.nodes\.0\.nodes\.0\.type must be one of "list-item"/,
    );
  });

  it('is declared in the served document as the official schema, with every component it needs', () => {
    const served = buildOpenApiDocument(registry, 'http://bindery.test') as unknown as {
      paths: Record<string, { post: { requestBody: { content: { 'application/json': { schema: { properties: { document: unknown } } } } } } }>;
      components: { schemas: Record<string, Record<string, unknown>> };
    };
    expect(served.paths['/documents'].post.requestBody.content['application/json'].schema.properties.document).toEqual({ $ref: '#/components/schemas/JSONDocument' });
    const { schemas } = served.components;
    for (const name of ['JSONDocument', 'DocumentBlockParagraph', 'DocumentInlineLink', 'DocumentTextLeaf', 'DocumentMarkBold', 'ContentRef']) expect(schemas[name]).toBeDefined();
    // Another validator reading only the served document agrees with the gateway.
    const ajv = addFormats(new Ajv2020({ strict: false, allErrors: true }));
    ajv.addFormat('icon', true);
    ajv.addSchema({ $id: 'served', components: { schemas } });
    const served$ = ajv.compile({ $ref: 'served#/components/schemas/JSONDocument' });
    for (const d of VALID) expect(served$(d)).toBe(true);
    for (const d of [{ '': 1 }, doc({}), doc(paragraph({ object: 'txt', leaves: [] })), doc(paragraph(text('a\u0000')))]) expect(served$(d)).toBe(false);
  });
});
