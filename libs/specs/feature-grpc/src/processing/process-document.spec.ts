import { DocumentProblem } from './document-problem';
import type { FileFetcher } from './fetch-file';
import { processDocument } from './process-document';

const petstore30 = {
  openapi: '3.0.3',
  info: { title: 'Petstore', version: '1.0.0' },
  paths: {
    '/pets': {
      get: { operationId: 'listPets', responses: { '200': { description: 'The pets', content: { 'application/json': { schema: { $ref: '#/components/schemas/Pets' } } } } } },
    },
  },
  components: {
    schemas: { Pet: { type: 'object', required: ['id'], properties: { id: { type: 'integer' } } }, Pets: { type: 'array', items: { $ref: '#/components/schemas/Pet' } } },
  },
};

const petstore31Yaml = `# a comment
openapi: 3.1.0
info:
  title: Petstore
  version: "2.0.0"
paths:
  /pets/{petId}:
    get:
      parameters:
        - { name: petId, in: path, required: true, schema: { type: [string, "null"] } }
      responses:
        "200": { description: One pet }
`;

const none: FileFetcher = async (url) => {
  throw new Error(`unexpected fetch of ${url}`);
};

async function problemOf(work: Promise<unknown>): Promise<DocumentProblem> {
  try {
    await work;
  } catch (err) {
    if (err instanceof DocumentProblem) return err;
    throw err;
  }
  throw new Error('expected a DocumentProblem');
}

describe('processing an OpenAPI document', () => {
  test('3.0 as JSON, 3.1 as YAML and Swagger 2.0 pass; the files are the entry alone', async () => {
    const a = await processDocument({ kind: 'text', text: JSON.stringify(petstore30) }, none, 10);
    expect(a).toMatchObject({ format: 'json', hash: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(a.filesystem).toEqual([{ dir: '.', isEntrypoint: true, references: [], filename: 'openapi.json', specification: petstore30 }]);
    const b = await processDocument({ kind: 'text', text: petstore31Yaml }, none, 10);
    expect(b.format).toBe('yaml');
    expect(b.raw).toBe(petstore31Yaml);
    expect(b.filesystem[0].specification).toMatchObject({ openapi: '3.1.0', info: { version: '2.0.0' } });
    const swagger = { swagger: '2.0', info: { title: 'Old', version: '1' }, paths: { '/a': { get: { responses: { '200': { description: 'ok' } } } } } };
    expect((await processDocument({ kind: 'text', text: JSON.stringify(swagger) }, none, 10)).filesystem[0].specification).toEqual(swagger);
  });

  test('the same document in another format, with other spacing, has the same hash; another key order does not', async () => {
    const json = await processDocument({ kind: 'text', text: JSON.stringify(petstore30, null, 2) }, none, 10);
    const compact = await processDocument({ kind: 'text', text: JSON.stringify(petstore30) }, none, 10);
    const asYaml = await processDocument({ kind: 'text', text: `# the same, in YAML\n${toYaml(petstore30)}` }, none, 10);
    expect(compact.hash).toBe(json.hash);
    expect(asYaml.hash).toBe(json.hash);
    const { paths, ...rest } = petstore30;
    const reordered = await processDocument({ kind: 'text', text: JSON.stringify({ paths, ...rest }) }, none, 10);
    expect(reordered.hash).not.toBe(json.hash);
  });

  test.each<[string, string, RegExp]>([
    ['broken JSON', '{"openapi": "3.0.0", "info": {', /^The document is not valid JSON: .*(position|line)/],
    ['broken YAML', 'openapi: 3.0.0\ninfo:\n  title: x\n   version: 1\n', /^The document is not valid YAML \(line 3, column \d+\)/],
    ['a list', '[1, 2]', /^The document holds a list, not an OpenAPI document/],
    ['a scalar', 'just words', /^The document holds a string, not an OpenAPI document/],
    ['no version', '{"info": {"title": "t", "version": "1"}, "paths": {}}', /openapi: 3\.0\.x/],
    ['a missing field', JSON.stringify({ ...petstore30, info: { version: '1' } }), /^info: must have required property 'title'/],
    [
      'a wrong value deep down',
      JSON.stringify({
        ...petstore30,
        paths: { '/pets': { get: { parameters: [{ name: 'q', in: 'nowhere', schema: { type: 'string' } }], responses: { '200': { description: 'ok' } } } } },
      }),
      /^paths\["\/pets"\]\.get\.parameters\[0\]\.in: must be equal to one of the allowed values/,
    ],
    [
      'a reference to nothing',
      JSON.stringify({ ...petstore30, components: { schemas: { Pets: { type: 'array', items: { $ref: '#/components/schemas/Nope' } } } } }),
      /^components\.schemas\.Pets\.items: the \$ref "#\/components\/schemas\/Nope" points to nothing in the document\./,
    ],
    ['a duplicate YAML key', 'openapi: 3.1.0\nopenapi: 3.0.0\n', /not valid YAML \(line 2, column 1\).*(unique|Map keys)/i],
  ])('%s is a PARSE_ERROR saying where and what', async (_name, text, message) => {
    const problem = await problemOf(processDocument({ kind: 'text', text }, none, 10));
    expect(problem.code).toBe('PARSE_ERROR');
    expect(problem.errors[0].message).toMatch(message);
  });

  test('a YAML bomb is refused, not expanded', async () => {
    const lines = ['a: &a ["x","x","x","x","x","x","x","x","x","x"]'];
    for (let i = 1; i < 12; i++)
      lines.push(
        `${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(10)
          .fill(`*${String.fromCharCode(96 + i)}`)
          .join(',')}]`,
      );
    const problem = await problemOf(processDocument({ kind: 'text', text: `openapi: 3.1.0\n${lines.join('\n')}\n` }, none, 10));
    expect(problem.errors[0].message).toMatch(/could not be read as YAML|alias/i);
  });

  test('external $refs are fetched relative to the file naming them, through the fetcher', async () => {
    const files: Record<string, unknown> = {
      'https://api.example.test/specs/openapi.yaml': `openapi: 3.1.0\ninfo: {title: Split, version: "1"}\npaths:\n  /pets:\n    get:\n      responses:\n        "200":\n          description: ok\n          content:\n            application/json:\n              schema: {$ref: "./schemas/pet.yaml#/Pet"}\n`,
      'https://api.example.test/specs/schemas/pet.yaml': 'Pet:\n  type: object\n  properties:\n    tag: {$ref: "tag.json#/Tag"}\n',
      'https://api.example.test/specs/schemas/tag.json': '{"Tag": {"type": "string"}}',
    };
    const asked: string[] = [];
    const fetcher: FileFetcher = async (url) => {
      asked.push(url);
      return { text: files[url] as string, url };
    };
    const done = await processDocument({ kind: 'url', url: 'https://api.example.test/specs/openapi.yaml' }, fetcher, 10);
    expect(asked).toEqual(['https://api.example.test/specs/openapi.yaml', 'https://api.example.test/specs/schemas/pet.yaml', 'https://api.example.test/specs/schemas/tag.json']);
    expect(done.filesystem.map((f) => [f.filename, f.isEntrypoint, f.references])).toEqual([
      ['openapi.json', true, ['./schemas/pet.yaml']],
      ['./schemas/pet.yaml', false, ['tag.json']],
      ['tag.json', false, []],
    ]);
    expect(done.sourceUrl).toBe('https://api.example.test/specs/openapi.yaml');
  });

  test('a relative $ref in a spec sent as text cannot be resolved: a PARSE_ERROR naming it and where', async () => {
    const text = JSON.stringify({ ...petstore30, components: { schemas: { Pets: { $ref: 'common.yaml#/Pets' } } } });
    const problem = await problemOf(processDocument({ kind: 'text', text }, none, 10));
    expect(problem).toMatchObject({ code: 'PARSE_ERROR' });
    expect(problem.errors[0].message).toBe(
      'the $ref "common.yaml#/Pets" at components.schemas.Pets names another file relative to the document, but a spec sent as text has no location: use an absolute URL, or send the spec by URL.',
    );
    const file = JSON.stringify({ ...petstore30, components: { schemas: { Pets: { $ref: 'file:///etc/passwd' } } } });
    expect((await problemOf(processDocument({ kind: 'text', text: file }, none, 10))).errors[0].message).toMatch(/must point to an http or https URL/);
  });

  test('a fetch failure keeps its code (FETCH_ERROR, FETCH_TIMEOUT) and names the reference', async () => {
    const text = JSON.stringify({ ...petstore30, components: { schemas: { Pets: { $ref: 'https://other.example.test/pets.json' } } } });
    const failing: FileFetcher = async (_url, what) => {
      throw new DocumentProblem('FETCH_TIMEOUT', [{ code: 'TIMEOUT', message: `${what} did not answer within 1 s.` }]);
    };
    const problem = await problemOf(processDocument({ kind: 'text', text }, failing, 10));
    expect(problem.code).toBe('FETCH_TIMEOUT');
    expect(problem.errors[0].message).toBe('the $ref "https://other.example.test/pets.json" at components.schemas.Pets did not answer within 1 s.');
  });

  test('at most maxFiles files', async () => {
    const refs = Object.fromEntries(Array.from({ length: 5 }, (_, i) => [`S${i}`, { $ref: `https://x.example.test/${i}.json` }]));
    const text = JSON.stringify({ ...petstore30, components: { schemas: refs } });
    const fetcher: FileFetcher = async (url) => ({ text: '{}', url });
    expect((await problemOf(processDocument({ kind: 'text', text }, fetcher, 3))).errors[0].message).toMatch(/at most 2 other files/);
  });
});

/** A small YAML writer for the test (objects, arrays, strings, numbers, booleans). */
function toYaml(value: unknown, indent = ''): string {
  if (Array.isArray(value)) return value.map((v) => `${indent}- ${toYaml(v, `${indent}  `).trimStart()}`).join('\n') + '\n';
  if (value && typeof value === 'object') {
    return Object.entries(value)
      .map(([k, v]) => (v && typeof v === 'object' ? `${indent}${JSON.stringify(k)}:\n${toYaml(v, `${indent}  `)}` : `${indent}${JSON.stringify(k)}: ${JSON.stringify(v)}\n`))
      .join('');
  }
  return `${JSON.stringify(value)}\n`;
}
