import type { Document, DocumentBlock, DocumentNode } from '@bindery/shared/markdown';
import { dereferenceReusableContents, includedReusableContents } from './dereference';

const text = (t: string): DocumentNode => ({ object: 'text', leaves: [{ object: 'leaf', text: t, marks: [] }] });
const paragraph = (t: string, key?: string): DocumentBlock => ({ object: 'block', type: 'paragraph', ...(key ? { key } : {}), data: {}, nodes: [text(t)] });
const include = (reusableContent: string, key: string, space?: string): DocumentBlock => ({
  object: 'block',
  type: 'reusable-content',
  key,
  isVoid: true,
  data: { ref: { kind: 'reusable-content', reusableContent, ...(space ? { space } : {}) } },
});
const doc = (...nodes: DocumentNode[]): Document => ({ object: 'document', data: {}, nodes });

describe('dereferenceReusableContents', () => {
  const contents: Record<string, Document> = {
    beta: doc(paragraph('This is in beta.', 'p1')),
    nested: doc(paragraph('Before.', 'n1'), include('beta', 'inc')),
    loop: doc(paragraph('Loop.', 'l1'), include('loop', 'again')),
  };
  const of = (id: string) => contents[id];

  it('replaces a block of this space by the blocks of the content, keys prefixed by the including block', () => {
    const out = dereferenceReusableContents(doc(paragraph('Hello', 'h'), include('beta', 'x'), include('beta', 'y')), 'sp', of);
    expect(out.nodes).toEqual([paragraph('Hello', 'h'), paragraph('This is in beta.', 'x-p1'), paragraph('This is in beta.', 'y-p1')]);
  });

  it('inlines contents included by contents, inside other blocks too', () => {
    const hint: DocumentBlock = { object: 'block', type: 'hint', key: 'hnt', data: { style: 'info' }, nodes: [include('nested', 'z')] };
    const out = dereferenceReusableContents(doc(hint), 'sp', of);
    expect((out.nodes[0] as DocumentBlock).nodes).toEqual([paragraph('Before.', 'z-n1'), paragraph('This is in beta.', 'z-inc-p1')]);
  });

  it('leaves blocks of another space, unknown contents and a content including itself as they are', () => {
    const foreign = include('beta', 'f', 'other-space');
    const unknown = include('nothing', 'u');
    expect(dereferenceReusableContents(doc(foreign, unknown), 'sp', of).nodes).toEqual([foreign, unknown]);
    expect(dereferenceReusableContents(doc(include('loop', 'a')), 'sp', of).nodes).toEqual([paragraph('Loop.', 'a-l1'), include('loop', 'a-again')]);
    expect(dereferenceReusableContents(doc(include('beta', 'same', 'sp')), 'sp', of).nodes).toEqual([paragraph('This is in beta.', 'same-p1')]);
  });

  it('lists the contents of this space a document includes', () => {
    expect([...includedReusableContents(contents.nested.nodes, 'sp')]).toEqual(['beta']);
    expect([...includedReusableContents([include('beta', 'f', 'elsewhere')], 'sp')]).toEqual([]);
  });
});
