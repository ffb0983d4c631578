import { contentRevisionsV1 as pb, documentToMessage, type JsonObject } from '@bindery/shared/contracts';
import { officialPage, officialSemanticChange, officialUpdateChange } from './revision-shapes';

/** A message as it arrives: encoded and decoded, so absent fields are as the wire leaves them. */
const wire = (page: unknown) => pb.RevisionPage.decode(pb.RevisionPage.encode(pb.RevisionPage.fromJSON(page)).finish());

describe('content revision messages → official JSON', () => {
  test('each kind of page has its own fields and no other, with its sub-pages', () => {
    const document = { object: 'document', data: {}, nodes: [] };
    const page = officialPage(
      wire({
        id: 'p1',
        title: 'Guide',
        createdAt: 't0',
        updatedAt: 't1',
        slug: 'guide',
        path: 'guide',
        document: { layout: { width: 'wide', cover: true }, document: documentToMessage(document as unknown as JsonObject), cover: { ref: { kind: 'file', file: 'f1' }, yPos: 3 } },
        pages: [
          { id: 'g1', title: 'Group', slug: 'g', path: 'guide/g', group: {}, hidden: true },
          { id: 'l1', title: 'Out', link: { target: { kind: 'url', url: 'https://example.com' } } },
        ],
      }),
    );
    expect(page).toMatchObject({
      id: 'p1',
      kind: 'sheet',
      type: 'document',
      slug: 'guide',
      path: 'guide',
      document,
      tags: [],
      cover: { ref: { kind: 'file', file: 'f1' }, yPos: 3 },
    });
    expect(page.layout).toMatchObject({ width: 'wide', cover: true });
    expect(page).not.toHaveProperty('emoji');
    expect(page).not.toHaveProperty('markdown');
    const [group, link] = page.pages!;
    expect(group).toEqual({ id: 'g1', title: 'Group', kind: 'group', type: 'group', createdAt: '', updatedAt: '', slug: 'g', path: 'guide/g', pages: [], hidden: true });
    expect(link).toEqual({ id: 'l1', title: 'Out', kind: 'link', type: 'link', createdAt: '', updatedAt: '', target: { kind: 'url', url: 'https://example.com' } });
  });

  test('a page read as Markdown carries its Markdown and no document', () => {
    const page = officialPage(wire({ id: 'p1', title: 'Guide', document: { markdown: '# Guide\n' } }));
    expect(page.markdown).toBe('# Guide\n');
    expect(page).not.toHaveProperty('document');
  });

  test('a semantic change gives each changed field its typed sides; an update change names its page as GitBook does', () => {
    const change = pb.SemanticChange.fromPartial({
      type: 'page_edited',
      page: { id: 'p1', type: 'document', title: 'Guide', path: 'guide' },
      attributes: { title: { before: { text: 'Old' }, after: { text: 'Guide' } }, emoji: { after: { text: '1f600' } } },
    });
    expect(officialSemanticChange(change)).toEqual({
      type: 'page_edited',
      page: { id: 'p1', type: 'document', title: 'Guide', path: 'guide' },
      attributes: { title: { before: 'Old', after: 'Guide' }, emoji: { after: '1f600' } },
    });
    expect(officialUpdateChange({ object: 'deleted_page', pageId: 'p1' })).toEqual({ object: 'deleted_page', page: 'p1' });
    expect(officialUpdateChange({ object: 'created_page', ref: 'r', pageId: 'p2' })).toEqual({ object: 'created_page', ref: 'r', page: { object: 'page', id: 'p2' } });
  });
});
