import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { markdownToDocument, type ToDocumentOptions } from '@bindery/shared/markdown';
import { JSON_DOCUMENT } from './document-schema';
import { compileValidators, validateRequest } from './request-validation';
import { RouteRegistry } from './route-registry';

/**
 * The documents Bindery makes itself (Markdown and Git imports, `{markdown}` bodies) pass the
 * gateway's own check of a client's document: the Markdown converter's output over both corpora of
 * the Markdown library (the authored one and the pages GitBook wrote).
 */
const MARKDOWN_SRC = join(__dirname, '..', '..', '..', 'shared', 'markdown', 'src');

function pages(dir: string): Array<{ name: string; markdown: string }> {
  const walk = (d: string): string[] =>
    readdirSync(d)
      .sort()
      .flatMap((entry) => (statSync(join(d, entry)).isDirectory() ? walk(join(d, entry)) : entry.endsWith('.md') && entry !== 'SOURCES.md' ? [join(d, entry)] : []));
  return walk(dir).map((path) => ({ name: relative(MARKDOWN_SRC, path), markdown: readFileSync(path, 'utf8') }));
}

const CORPUS = [...pages(join(MARKDOWN_SRC, 'corpus')), ...pages(join(MARKDOWN_SRC, 'corpus-real'))];

/** A space where every link, file and include resolves, so references of every kind are made. */
const resolving: ToDocumentOptions = {
  resolveLink: (href) => (href.includes('#') ? { kind: 'anchor', page: 'p1', anchor: href.split('#')[1] || 'top' } : { kind: 'page', page: 'p1' }),
  resolveFile: () => ({ kind: 'file', file: 'f1' }),
  resolveReusableContent: () => ({ kind: 'reusable-content', reusableContent: 'rc1' }),
};

const [route] = new RouteRegistry().add({
  method: 'post',
  path: '/documents',
  operationId: 'postDocument',
  summary: '',
  tags: [],
  body: { type: 'object', additionalProperties: false, required: ['document'], properties: { document: JSON_DOCUMENT } },
  success: { status: 200, description: '' },
  handler: async () => ({}),
}).routes;
const validators = compileValidators(route);
const refusal = (document: unknown) => {
  try {
    validateRequest(validators, { params: {}, query: {}, body: { document }, hasBody: true });
    return undefined;
  } catch (err) {
    return (err as Error).message;
  }
};

describe("the Markdown converter's documents pass the gateway's document check", () => {
  it('has both corpora', () => {
    expect(CORPUS.filter((p) => p.name.startsWith('corpus/')).length).toBeGreaterThanOrEqual(10);
    expect(CORPUS.filter((p) => p.name.startsWith('corpus-real/')).length).toBeGreaterThanOrEqual(59);
  });

  it.each(CORPUS)('$name', ({ markdown }) => {
    expect(refusal(markdownToDocument(markdown).document)).toBeUndefined();
    expect(refusal(markdownToDocument(markdown, resolving).document)).toBeUndefined();
  });
});
