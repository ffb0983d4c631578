import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { markdownToDocument, type ToDocumentOptions } from '@bindery/shared/markdown';
import { Document, DocumentBody } from './generated/bindery/common/v1/document';
import { bodyFromMessage, bodyToMessage, documentFromMessage, documentToMessage, type JsonObject } from './document-message';

/** JSON → message → protobuf bytes → message → JSON. */
const trip = (doc: JsonObject) => JSON.stringify(documentFromMessage(Document.decode(Document.encode(documentToMessage(doc)).finish())));

const MARKDOWN_SRC = join(__dirname, '..', '..', 'markdown', 'src');
function markdownPages(dir: string): Array<[string, string]> {
  const walk = (d: string): string[] =>
    readdirSync(d)
      .sort()
      .flatMap((e) => (statSync(join(d, e)).isDirectory() ? walk(join(d, e)) : e.endsWith('.md') && e !== 'SOURCES.md' ? [join(d, e)] : []));
  return walk(dir).map((path) => [path.slice(MARKDOWN_SRC.length + 1), readFileSync(path, 'utf8')]);
}
const CORPUS = [...markdownPages(join(MARKDOWN_SRC, 'corpus')), ...markdownPages(join(MARKDOWN_SRC, 'corpus-real'))];
const resolving: ToDocumentOptions = {
  resolveLink: (href) => (href.includes('#') ? { kind: 'anchor', page: 'p1', anchor: href.split('#')[1] || 'top' } : { kind: 'page', page: 'p1' }),
  resolveFile: () => ({ kind: 'file', file: 'f1' }),
  resolveReusableContent: () => ({ kind: 'reusable-content', reusableContent: 'rc1' }),
};

describe('a document as a message', () => {
  it('has both corpora of the Markdown library', () => {
    expect(CORPUS.length).toBeGreaterThanOrEqual(90);
  });

  it.each(CORPUS)('%s survives, byte for byte', (_name, markdown) => {
    for (const document of [markdownToDocument(markdown).document, markdownToDocument(markdown, resolving).document]) {
      const json = JSON.stringify(document);
      expect(trip(document as unknown as JsonObject)).toBe(json);
    }
  });

  it('keeps what its typed fields cannot hold, and any field order, and says so only then', () => {
    const documents: JsonObject[] = [
      { object: 'document', data: {}, nodes: [] },
      { nodes: [], data: { schemaVersion: 2, nested: { a: [1, 'b', null, true, { c: -6.9e16 }] } }, object: 'document' },
      { '': -6.9e16, 'M0u\u000f': null },
      { object: 'document', data: [1, 2], nodes: 'none', more: { x: 1 } },
      {
        object: 'document',
        data: {},
        nodes: [
          { object: 'block', type: 'paragraph', nodes: [] },
          { type: 'divider', object: 'block', data: {}, isVoid: true, meta: { id: 'x' } },
          { object: 'block', type: 'images', data: {}, nodes: [], fragments: [{ object: 'fragment', fragment: 'caption', nodes: [] }] },
          { object: 'text', leaves: [{ object: 'leaf', text: 'a', marks: [{ object: 'mark', type: 'color', data: { text: 'red', background: 'default' } }] }] },
          {
            object: 'text',
            leaves: [
              { object: 'leaf', text: 'no marks' },
              { marks: [], text: 'reordered', object: 'leaf' },
            ],
          },
          { object: 'block', type: 'x', nodes: [1, 2], isVoid: 'no', key: 7 },
        ],
      },
    ];
    // JSON may name a field __proto__ (JSON.parse makes it an own field, as express does)
    documents.push(JSON.parse('{"object":"document","data":{"__proto__":{"x":1},"___proto__":2},"nodes":[{"object":"block","type":"p","__proto__":[]}],"__proto__":{"y":2}}'));
    for (const d of documents) expect(trip(d)).toBe(JSON.stringify(d));
    // The usual order costs nothing on the wire; another order is listed.
    expect(documentToMessage({ object: 'document', data: {}, nodes: [] }).fieldOrder).toEqual([]);
    expect(documentToMessage({ nodes: [], object: 'document', data: {} }).fieldOrder).toEqual(['nodes', 'object', 'data']);
  });

  it('is smaller than its JSON text', () => {
    const [, markdown] = CORPUS.find(([name]) => name.includes('corpus-real'))!;
    const { document } = markdownToDocument(markdown);
    expect(Document.encode(documentToMessage(document as unknown as JsonObject)).finish().length).toBeLessThan(Buffer.byteLength(JSON.stringify(document)));
  });

  it('carries the official Document body: a document, Markdown, or nothing', () => {
    const bodyTrip = (b: Parameters<typeof bodyToMessage>[0]) => bodyFromMessage(DocumentBody.decode(DocumentBody.encode(bodyToMessage(b)).finish()));
    const document = { object: 'document', data: {}, nodes: [] };
    expect(bodyTrip({ document })).toEqual({ document });
    expect(bodyTrip({ markdown: '' })).toEqual({ markdown: '' });
    expect(bodyTrip({ markdown: '# Hi' })).toEqual({ markdown: '# Hi' });
    expect(bodyTrip({})).toEqual({});
  });
});
