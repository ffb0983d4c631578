import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { markdownToDocument } from '@bindery/shared/markdown';
import { hastToHtml, renderDocument } from './render';
import { apiSpecNamesIn } from './openapi-blocks';
import { describe as describeDescription, describeByMarkdown, renderApiBlock, renderOperation, renderSchemas, renderWebhook } from './openapi-operation';
import type { PublishedApiSpec } from './openapi-spec';
import type { DocumentBlock, RenderContext } from './types';

const petstore: PublishedApiSpec = {
  specId: 's1',
  versionId: 'v1',
  files: [{ filename: 'openapi.json', isEntrypoint: true, specification: JSON.parse(readFileSync(join(__dirname, 'fixtures/openapi/petstore.json'), 'utf8')) }],
};

/** A small spec of our own: a tree whose nodes hold nodes (a $ref cycle), enums, security, a 3.1 webhook, a second file. */
const tree: PublishedApiSpec = {
  specId: 's2',
  versionId: 'v3',
  files: [
    {
      filename: 'openapi.json',
      isEntrypoint: true,
      specification: {
        openapi: '3.1.0',
        info: { title: 'Trees', version: '1' },
        servers: [{ url: 'https://{region}.api.example.com/v2', variables: { region: { default: 'eu' } } }],
        security: [{ token: [] }],
        paths: {
          '/trees/{treeId}/nodes': {
            parameters: [
              {
                name: 'treeId',
                in: 'path',
                required: true,
                schema: { type: 'string' },
                description: 'The **tree**, see [the guide](https://example.com/guide) or [this](javascript:alert(1))',
              },
            ],
            post: {
              summary: 'Add a node',
              description: 'Adds a node <script>alert(1)</script> to the tree.',
              parameters: [{ name: 'dryRun', in: 'query', required: true, schema: { type: 'boolean' } }],
              requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/Node' } } } },
              responses: {
                '201': {
                  description: 'The node',
                  content: { 'application/json': { schema: { $ref: '#/components/schemas/Node' }, example: { id: 'n1', kind: 'leaf', children: [] } } },
                },
                '404': { $ref: '#/components/responses/NotFound' },
              },
            },
          },
        },
        webhooks: {
          nodeAdded: {
            post: {
              summary: 'A node was added',
              requestBody: { content: { 'application/json': { schema: { $ref: 'shared.json#/Event' } } } },
              responses: { '200': { description: 'Received' } },
            },
          },
        },
        components: {
          securitySchemes: { token: { type: 'http', scheme: 'bearer' } },
          responses: { NotFound: { description: 'No such tree', content: { 'application/json': { schema: { type: 'object', properties: { message: { type: 'string' } } } } } } },
          schemas: {
            Node: {
              type: 'object',
              required: ['id', 'kind'],
              properties: {
                id: { type: 'string', description: 'Its id' },
                kind: { type: 'string', enum: ['leaf', 'branch'] },
                children: { type: 'array', items: { $ref: '#/components/schemas/Node' } },
                parent: { $ref: '#/components/schemas/Node' },
              },
            },
          },
        },
      },
    },
    {
      filename: 'shared.json',
      specification: { Event: { type: 'object', properties: { at: { type: 'string', format: 'date-time' }, node: { $ref: 'openapi.json#/components/schemas/Node' } } } },
    },
  ],
};

const html = (e: ReturnType<typeof renderOperation>) => (e ? hastToHtml([e]) : '');
const text = (h: string) =>
  h
    .replace(/<[^>]+>/g, '')
    .replace(/&#x27;/g, "'")
    .replace(/&#x22;|&quot;/g, '"')
    .replace(/&#x26;|&amp;/g, '&')
    .replace(/&#x3C;|&lt;/g, '<');

describe('API references from a spec (the OpenAPI Petstore)', () => {
  test('an operation: method, path, summary, parameters as a table with headers, responses with their schemas, curl', () => {
    const out = html(renderOperation(petstore, '/pets', 'get'));
    expect(out).toContain('<h3 class="api-title">List all pets</h3>');
    expect(out).toContain('<span class="api-method api-method-get">GET</span> <code class="api-path">/pets</code>');
    expect(out).toMatch(
      /<thead><tr><th scope="col">Name<\/th><th scope="col">In<\/th><th scope="col">Type<\/th><th scope="col">Required<\/th><th scope="col">Description<\/th><\/tr><\/thead>/,
    );
    expect(text(out)).toContain('limitqueryinteger · int32NoHow many items to return at one time (max 100)');
    // responses: 200 an array of Pet (its properties listed), default an Error
    expect(text(out)).toContain('200 A paged array of pets');
    expect(text(out)).toContain('array of Pet');
    expect(text(out)).toMatch(/id integer · int64 required/);
    expect(text(out)).toContain('default unexpected error');
    expect(text(out)).toMatch(/code integer · int32 required/);
    // curl to servers[0] + path, in a code block the page's script gives a Copy button
    expect(out).toContain('<figure class="code-block" data-syntax="bash"><figcaption class="code-title">curl</figcaption>');
    expect(text(out)).toContain("curl -X GET 'http://petstore.swagger.io/v1/pets'");
    // the example response, generated from the schema (small and the same every time)
    expect(text(out)).toContain('[\n  {\n    "id": 1,\n    "name": "text",\n    "tag": "text"\n  }\n]');
  });

  test('a request body: content type, required, its schema as a property list; curl sends an example body', () => {
    const out = html(renderOperation(petstore, '/pets', 'post'));
    expect(text(out)).toContain('Request body required');
    expect(out).toContain('Content type <code>application/json</code>');
    expect(text(out)).toMatch(/name string required/);
    expect(text(out)).toContain(
      `curl -X POST 'http://petstore.swagger.io/v1/pets' \\\n  -H 'Content-Type: application/json' \\\n  -d '{\n  "id": 1,\n  "name": "text",\n  "tag": "text"\n}'`,
    );
    expect(text(out)).toContain('201 Null response');
  });

  test('a path parameter is required; an operation the spec lacks renders nothing (the block shows its note)', () => {
    expect(text(html(renderOperation(petstore, '/pets/{petId}', 'get')))).toContain('petIdpathstringYesThe id of the pet to retrieve');
    expect(renderOperation(petstore, '/pets', 'delete')).toBeUndefined();
    expect(renderOperation(petstore, '/nope', 'get')).toBeUndefined();
    expect(renderOperation(petstore, '/pets', 'constructor')).toBeUndefined();
  });
});

describe('API references: cycles, security, descriptions, webhooks, schemas', () => {
  test('a schema holding itself is listed once and named where it recurs (the cycle is cut), in the list and the example', () => {
    const out = html(renderOperation(tree, '/trees/{treeId}/nodes', 'post'));
    expect(text(out)).toContain('Node (recursive: described above)');
    expect(text(out)).toContain('Possible values: "leaf", "branch"');
    // the body example stops at the cycle: children [] and no parent
    expect(text(out)).toContain(`-d '{\n  "id": "text",\n  "kind": "leaf",\n  "children": []\n}'`);
    // the response's own example is used as it is
    expect(text(out)).toContain('"id": "n1"');
    // a response given by reference
    expect(text(out)).toContain('404 No such tree');
  });

  test('curl: server variables at their defaults, required query parameters, the security scheme as a placeholder', () => {
    const out = text(html(renderOperation(tree, '/trees/{treeId}/nodes', 'post')));
    expect(out).toContain(
      "curl -X POST 'https://eu.api.example.com/v2/trees/{treeId}/nodes?dryRun=true' \\\n  -H 'Authorization: Bearer YOUR_TOKEN' \\\n  -H 'Content-Type: application/json'",
    );
  });

  test('descriptions are Markdown shown as safe HTML: web links kept, other schemes not, markup never run', () => {
    const out = html(renderOperation(tree, '/trees/{treeId}/nodes', 'post'));
    expect(out).toContain('<strong>tree</strong>');
    expect(out).toContain('<a href="https://example.com/guide"');
    expect(out).not.toContain('javascript:');
    expect(out).not.toContain('<script>');
  });

  test("a webhook's payload from another file of the spec; named schemas with an example", () => {
    const hook = text(html(renderWebhook(tree, 'nodeAdded')));
    expect(hook).toContain('A node was added');
    expect(hook).toMatch(/at string · date-time/);
    expect(hook).toContain('node Node');
    expect(hook).not.toContain('curl');
    const schemas = text(html(renderSchemas(tree, ['Node', 'Missing'])));
    expect(schemas).toContain('Node example');
    expect(renderSchemas(tree, ['Missing'])).toBeUndefined();
  });
});

describe('API blocks in documents', () => {
  const ctx = (specs: Record<string, PublishedApiSpec>): RenderContext => ({
    link: () => undefined,
    file: () => undefined,
    apiReference: (block: DocumentBlock) => {
      const ref = block.data?.ref as { spec?: string; url?: string };
      const spec = specs[ref.spec ?? ref.url ?? ''];
      return spec ? renderApiBlock(spec, block) : undefined;
    },
  });

  test("GitBook's Markdown tags become blocks; a spec the context gives renders, any other shows the note", () => {
    const md = [
      '{% openapi-operation spec="petstore" path="/pets" method="post" %}',
      '[OpenAPI petstore](https://example.com/spec)',
      '{% endopenapi-operation %}',
      '',
      '{% openapi src="https://elsewhere.example.com/o.json" path="/pets" method="get" %}',
      '[https://elsewhere.example.com/o.json](https://elsewhere.example.com/o.json)',
      '{% endopenapi %}',
      '',
      'After.',
    ].join('\n');
    const doc = markdownToDocument(md).document;
    expect(apiSpecNamesIn([doc])).toEqual([{ slug: 'petstore' }, { url: 'https://elsewhere.example.com/o.json' }]);
    const out = renderDocument(doc, ctx({ petstore })).html;
    expect(out).toContain('<h3 class="api-title">Create a pet</h3>');
    expect(out).toContain('<div class="openapi unsupported-block" role="note" data-block="swagger"><code>GET /pets</code>');
    expect(out).not.toContain('{%');
    expect(out).toContain('<p>After.</p>');
    // the operation's headings stay out of the page's outline
    expect(renderDocument(doc, ctx({ petstore })).headings).toEqual([]);
  });
});

test("a description of plain text is shown as the Markdown path would show it (every description of GitHub's webhooks description)", () => {
  const spec = JSON.parse(readFileSync(require.resolve('@octokit/openapi-webhooks/generated/api.github.com.json'), 'utf8'));
  const descriptions = new Set<string>();
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object')
      for (const [k, x] of Object.entries(v)) {
        if (k === 'description' && typeof x === 'string') descriptions.add(x);
        else walk(x);
      }
  };
  walk(spec);
  expect(descriptions.size).toBeGreaterThan(1000);
  const tricky = ['1. First', '2) Second', 'Plain text ', 'Text\n\nmore', 'a - b', 'Use `code`', 'www.example.com', 'Ünïcödé wörds, and (brackets)?', ''];
  for (const text of [...descriptions, ...tricky]) expect([text, hastToHtml(describeDescription(text))]).toEqual([text, hastToHtml(describeByMarkdown(text))]);
});
