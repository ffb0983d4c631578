import type { Element } from 'hast';
import { markdownToDocument } from '@bindery/shared/markdown';
import { DocumentRenderer } from './blocks';
import { Child, Children, el, raw } from './hast';
import { hastToHtml, safeLinks } from './render';
import type { DocumentBlock, RenderContext } from './types';
import { curlCommand, securityPlaceholders, serverUrl } from './openapi-curl';
import { DescriptionRenderer, exampleOf, schemaList } from './openapi-schema';
import { ApiSpecFile, isObject, Json, PublishedApiSpec, SpecDocument } from './openapi-spec';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** Descriptions hold Markdown: shown through the reader's own rendering (web links only, text escaped). */
const DESCRIPTION_CONTEXT: RenderContext = safeLinks({
  link: (ref) => (ref.kind === 'url' && typeof (ref as { url?: unknown }).url === 'string' ? { href: (ref as { url: string }).url } : undefined),
  file: () => undefined,
});

/**
 * Text no Markdown construct can begin or hold (letters, digits, spaces and plain punctuation; not a
 * list item's number, no `www.`): one paragraph, exactly as the Markdown path renders it, without parsing it.
 * Most descriptions of large specs are such sentences, and parsing each took most of a block's render.
 */
const PLAIN = /^[\p{L}\p{N}][\p{L}\p{N} ,.;'"()?-]*$/u;
const LIST_ITEM = /^\d{1,9}[.)](?: |$)/;
/** GFM links `www.` addresses written as text */
const AUTOLINK = /www\./i;

/**
 * Descriptions already shown, as HTML: a spec repeats them (GitHub's webhooks description holds 4,454
 * descriptions, 1,110 distinct), and a description always renders the same. Emptied when full.
 */
const DESCRIBED = new Map<string, string>();
const MAX_DESCRIBED = 5000;

export function describe(markdown: string): Child[] {
  if (!markdown.trim()) return [];
  let html = DESCRIBED.get(markdown);
  if (html === undefined) {
    const plain = PLAIN.test(markdown) && !LIST_ITEM.test(markdown) && !AUTOLINK.test(markdown) && !markdown.endsWith(' ');
    html = hastToHtml(plain ? [el('div', { className: ['api-description'] }, el('p', {}, markdown))] : describeByMarkdown(markdown));
    if (DESCRIBED.size >= MAX_DESCRIBED) DESCRIBED.clear();
    DESCRIBED.set(markdown, html);
  }
  return [raw(html)];
}

/** A description through the Markdown converter and the page's renderer. */
export function describeByMarkdown(markdown: string): Child[] {
  if (!markdown.trim()) return [];
  try {
    const doc = markdownToDocument(markdown).document;
    return [el('div', { className: ['api-description'] }, new DocumentRenderer(DESCRIPTION_CONTEXT).blocks(doc.nodes))];
  } catch {
    return [el('p', { className: ['api-description'] }, markdown)];
  }
}

/** A code block as the page shows code (highlighted, with its Copy button). */
function codeBlock(source: string, syntax: string, title: string): Child[] {
  const block: DocumentBlock = {
    object: 'block',
    type: 'code',
    data: { syntax, title },
    nodes: source
      .split('\n')
      .map((line) => ({ object: 'block', type: 'code-line', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: line, marks: [] }] }] }) as DocumentBlock),
  } as DocumentBlock;
  return new DocumentRenderer(DESCRIPTION_CONTEXT).block(block);
}

const json = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v, null, 2));
const str = (v: unknown) => (typeof v === 'string' ? v : undefined);

interface Found {
  doc: SpecDocument;
  pathItem: Json;
  op: Json;
  file: ApiSpecFile;
}

/** The operation at `path` and `method` of a spec (a path item or operation given by reference followed). */
function operationOf(doc: SpecDocument, path: string, method: string): Found | undefined {
  const paths = doc.root.paths;
  if (!isObject(paths)) return undefined;
  const item = doc.resolve(paths[path], doc.entry);
  const op = item ? doc.resolve(item.value[method.toLowerCase()], item.file) : undefined;
  return item && op ? { doc, pathItem: item.value, op: op.value, file: op.file } : undefined;
}

/** A request body or response's media types: OpenAPI 3's `content`, or Swagger 2's schema with the spec's media type. */
function contentOf(found: Found, owner: Json, swaggerSchema: unknown, swaggerTypes: unknown): Array<[string, Json]> {
  if (isObject(owner.content)) return Object.entries(owner.content).filter((e): e is [string, Json] => isObject(e[1]));
  if (swaggerSchema !== undefined) {
    const types =
      Array.isArray(swaggerTypes) && typeof swaggerTypes[0] === 'string' ? swaggerTypes : Array.isArray(found.doc.root.consumes) ? found.doc.root.consumes : ['application/json'];
    return [[String(types[0]), { schema: swaggerSchema }]];
  }
  return [];
}

function mediaExample(found: Found, media: Json): unknown {
  if (media.example !== undefined) return media.example;
  if (isObject(media.examples)) {
    const first = found.doc.resolve(Object.values(media.examples)[0], found.file);
    if (first && first.value.value !== undefined) return first.value.value;
  }
  return media.schema === undefined ? undefined : exampleOf(media.schema, found.file, found.doc);
}

function parametersOf(found: Found): Json[] {
  const byKey = new Map<string, Json>();
  for (const list of [found.pathItem.parameters, found.op.parameters]) {
    if (!Array.isArray(list)) continue;
    for (const p of list) {
      const param = found.doc.resolve(p, found.file)?.value;
      if (param && typeof param.name === 'string') byKey.set(`${String(param.in)}:${param.name}`, param);
    }
  }
  return [...byKey.values()];
}

function paramType(found: Found, p: Json): string {
  const schema = found.doc.resolve(p.schema, found.file)?.value ?? p;
  const t = Array.isArray(schema.type) ? (schema.type as string[]).join(' | ') : str(schema.type);
  const base = t === 'array' ? `array of ${str(found.doc.resolve(schema.items, found.file)?.value.type) ?? 'any'}` : (t ?? 'any');
  return typeof schema.format === 'string' ? `${base} · ${schema.format}` : base;
}

function parametersTable(found: Found, params: Json[]): Child[] {
  if (!params.length) return [];
  return [
    el('h4', {}, 'Parameters'),
    el(
      'div',
      { className: ['table-wrap'], tabIndex: 0, role: 'region', ariaLabel: 'Parameters' },
      el(
        'table',
        { className: ['api-parameters'] },
        el(
          'thead',
          {},
          el(
            'tr',
            {},
            ['Name', 'In', 'Type', 'Required', 'Description'].map((h) => el('th', { scope: 'col' }, h)),
          ),
        ),
        el(
          'tbody',
          {},
          params.map((p) =>
            el(
              'tr',
              {},
              el('td', {}, el('code', {}, String(p.name))),
              el('td', {}, String(p.in ?? '')),
              el('td', {}, el('span', { className: ['api-type'] }, paramType(found, p))),
              el('td', {}, p.required === true || p.in === 'path' ? 'Yes' : 'No'),
              el('td', {}, typeof p.description === 'string' ? describe(p.description) : undefined),
            ),
          ),
        ),
      ),
    ),
  ];
}

function mediaSection(found: Found, entries: Array<[string, Json]>): Child[] {
  return entries.map(([type, media]) =>
    el(
      'div',
      { className: ['api-media'] },
      el('p', { className: ['api-content-type'] }, 'Content type ', el('code', {}, type)),
      media.schema === undefined ? undefined : schemaList(media.schema, found.file, found.doc, describe),
    ),
  );
}

/** The operation's parts, shared by operations and webhooks. */
function operationParts(found: Found, method: string, path: string, options: { curl: boolean }): Children[] {
  const { op } = found;
  const params = parametersOf(found);
  const swaggerBody = params.find((p) => p.in === 'body');
  const visibleParams = params.filter((p) => p.in !== 'body');
  const requestBody = found.doc.resolve(op.requestBody, found.file)?.value ?? (swaggerBody ? { required: swaggerBody.required, description: swaggerBody.description } : undefined);
  const bodyContent = requestBody ? contentOf(found, requestBody, swaggerBody?.schema, op.consumes) : [];
  const responses = isObject(op.responses) ? Object.entries(op.responses) : [];
  const out: Children[] = [...parametersTable(found, visibleParams)];

  if (requestBody) {
    out.push(
      el('h4', {}, 'Request body', requestBody.required === true ? [' ', el('span', { className: ['api-required'] }, 'required')] : undefined),
      typeof requestBody.description === 'string' ? describe(requestBody.description) : undefined,
      mediaSection(found, bodyContent),
    );
  }

  if (responses.length) {
    out.push(
      el('h4', {}, 'Responses'),
      el(
        'ul',
        { className: ['api-responses'] },
        responses.map(([status, r]) => {
          const response = found.doc.resolve(r, found.file)?.value ?? {};
          const content = contentOf(found, response, response.schema, op.produces ?? found.doc.root.produces);
          const good = /^2/.test(status);
          return el(
            'li',
            { className: ['api-response', good ? 'api-success' : /^[45]|default/.test(status) ? 'api-error' : undefined].filter(Boolean) as string[] },
            el(
              'p',
              { className: ['api-status'] },
              el('code', {}, status),
              typeof response.description === 'string' ? [' ', el('span', {}, response.description.split('\n')[0])] : undefined,
            ),
            mediaSection(found, content),
          );
        }),
      ),
    );
  }

  if (options.curl) {
    const security = securityPlaceholders(found.doc, op);
    const required = visibleParams
      .filter((p) => p.in === 'query' && p.required === true)
      .map((p) => `${encodeURIComponent(String(p.name))}=${encodeURIComponent(String(paramExample(found, p)))}`);
    const query = [...required, ...security.query];
    const headers = [
      ...security.headers,
      ...visibleParams.filter((p) => p.in === 'header' && p.required === true).map((p) => `${String(p.name)}: ${String(paramExample(found, p))}`),
    ];
    const first = bodyContent.find(([t]) => /json/i.test(t)) ?? bodyContent[0];
    const command = curlCommand({
      method,
      url: `${serverUrl(found.doc, found.pathItem, op)}${path}${query.length ? `?${query.join('&')}` : ''}`,
      headers,
      body: first ? { contentType: first[0], example: mediaExample(found, first[1]) } : undefined,
    });
    out.push(el('h4', {}, 'Example request'), codeBlock(command, 'bash', 'curl'));
  }
  const success = responses.map(([status, r]) => [status, found.doc.resolve(r, found.file)?.value ?? {}] as const).find(([status]) => /^2/.test(status));
  const successContent = success ? contentOf(found, success[1], success[1].schema, op.produces ?? found.doc.root.produces).find(([t]) => /json/i.test(t)) : undefined;
  const responseExample = successContent ? mediaExample(found, successContent[1]) : undefined;
  if (responseExample !== undefined) out.push(el('h4', {}, 'Example response'), codeBlock(json(responseExample), 'json', `${success![0]} ${successContent![0]}`));
  return out;
}

function paramExample(found: Found, p: Json): unknown {
  if (p.example !== undefined) return p.example;
  const x = exampleOf(p.schema ?? p, found.file, found.doc);
  return x === undefined ? 'value' : typeof x === 'object' ? JSON.stringify(x) : x;
}

function header(kind: string, method: string, path: string, op: Json): Child[] {
  const title = str(op.summary) ?? (kind === 'Webhook' ? `Webhook ${path}` : `${method.toUpperCase()} ${path}`);
  return [
    el('h3', { className: ['api-title'] }, title),
    el(
      'p',
      { className: ['api-endpoint'] },
      el('span', { className: ['api-method', `api-method-${method.toLowerCase()}`] }, method.toUpperCase()),
      ' ',
      el('code', { className: ['api-path'] }, path),
      op.deprecated === true ? [' ', el('span', { className: ['api-deprecated'] }, 'deprecated')] : undefined,
    ),
    ...(typeof op.description === 'string' ? describe(op.description) : []),
  ];
}

/** An operation of a spec, or undefined when the spec has none at that path and method. */
export function renderOperation(spec: PublishedApiSpec, path: string, method: string): Element | undefined {
  const doc = new SpecDocument(spec.files);
  const m = method.toLowerCase();
  if (!METHODS.includes(m)) return undefined;
  const found = operationOf(doc, path, m);
  if (!found) return undefined;
  return el(
    'section',
    { className: ['api-operation'], ariaLabel: `${m.toUpperCase()} ${path}`, dataMethod: m },
    header('Operation', m, path, found.op),
    operationParts(found, m, path, { curl: true }),
  );
}

/** An OpenAPI 3.1 webhook: what the API sends (its payload and the answers it expects). */
export function renderWebhook(spec: PublishedApiSpec, name: string, method = 'post'): Element | undefined {
  const doc = new SpecDocument(spec.files);
  const hooks = doc.root.webhooks;
  if (!isObject(hooks)) return undefined;
  const item = doc.resolve(hooks[name], doc.entry);
  const m = method.toLowerCase();
  const op = item ? doc.resolve(item.value[m], item.file) : undefined;
  if (!item || !op) return undefined;
  const found: Found = { doc, pathItem: item.value, op: op.value, file: op.file };
  return el(
    'section',
    { className: ['api-operation', 'api-webhook'], ariaLabel: `Webhook ${name}` },
    header('Webhook', m, name, op.value),
    operationParts(found, m, name, { curl: false }),
  );
}

/** Named schemas of a spec (components.schemas, or Swagger 2's definitions), each with its properties and an example. */
export function renderSchemas(spec: PublishedApiSpec, names: string[]): Element | undefined {
  const doc = new SpecDocument(spec.files);
  const root = doc.root;
  const all = isObject(root.components) && isObject(root.components.schemas) ? root.components.schemas : isObject(root.definitions) ? root.definitions : {};
  const shown = names.filter((n) => isObject(all[n]));
  if (!shown.length) return undefined;
  return el(
    'section',
    { className: ['api-schemas'], ariaLabel: `Schemas ${shown.join(', ')}` },
    shown.map((name) => {
      const schema = all[name];
      const example = exampleOf(schema, doc.entry, doc);
      return el(
        'div',
        { className: ['api-named-schema'] },
        el('h3', { className: ['api-title'] }, name),
        schemaList(schema, doc.entry, doc, describe),
        example === undefined ? undefined : codeBlock(json(example), 'json', `${name} example`),
      );
    }),
  );
}

/** The rendering of an API block with its spec (undefined: the spec does not hold what the block names). */
export function renderApiBlock(spec: PublishedApiSpec, block: DocumentBlock): Element | undefined {
  const data = block.data ?? {};
  try {
    if (block.type === 'openapi-operation' || block.type === 'swagger') return renderOperation(spec, String(data.path ?? ''), String(data.method ?? ''));
    if (block.type === 'openapi-webhook') return renderWebhook(spec, String(data.name ?? ''), typeof data.method === 'string' ? data.method : 'post');
    if (block.type === 'openapi-schemas') return renderSchemas(spec, Array.isArray(data.schemas) ? data.schemas.map(String) : []);
  } catch {
    return undefined;
  }
  return undefined;
}

export type { DescriptionRenderer };
