import { randomBytes } from 'node:crypto';
import { connectContent } from '@bindery/content/client';
import { IdentityEvents as I } from '@bindery/identity/client';
import { identityStandIn } from '@bindery/identity/projection';
import { contentRevisionsV1, documentFromMessage } from '@bindery/shared/contracts';
import { ServiceUnderTest, startServiceUnderTest } from '@bindery/shared/testing';
import type { ContentDeps } from '../content-deps';
import { contentServiceWith } from '../content-server';

const admin = { userId: `admin-${randomBytes(3).toString('hex')}`, isInstanceAdmin: false };
const reader = { userId: `reader-${randomBytes(3).toString('hex')}`, isInstanceAdmin: false };
const stranger = { userId: `stranger-${randomBytes(3).toString('hex')}`, isInstanceAdmin: false };
const org = `org-${randomBytes(3).toString('hex')}`;
const namespace = `it${randomBytes(3).toString('hex')}.`;

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const TREE = [
  { source: 'README.md', markdown: '# Welcome\n\nHello.\n\n{% include ".gitbook/includes/beta.md" %}\n\n{% include ".gitbook/includes/beta.md" %}\n' },
  { source: 'guide/README.md', markdown: '# Guide\n' },
  { source: 'guide/install.md', markdown: '# Install\n\n{% include "../.gitbook/includes/support.md" %}\n' },
  { source: 'Reference', type: 'group', title: 'Reference', markdown: '' },
];
const INCLUDES = [
  { source: '.gitbook/includes/beta.md', title: 'Beta', markdown: 'This is in **beta**.\n\n{% include "support.md" %}\n' },
  { source: '.gitbook/includes/support.md', markdown: 'Write to support.\n' },
];

/** Every block type of a document, depth first. */
const types = (nodes: Json[]): string[] => nodes.flatMap((n) => (n.object === 'block' ? [n.type, ...types(n.nodes ?? [])] : []));

describe("a page's document and meta links, for GitBook's renderer (in process, real MongoDB and Kafka)", () => {
  let service: ServiceUnderTest<ContentDeps>;
  let clients: ReturnType<typeof connectContent>;
  let spaceId: string;
  let pages: Record<string, string>;
  let firstRevision: string;

  beforeAll(async () => {
    service = await startServiceUnderTest(contentServiceWith(Date.now, identityStandIn), { CONTENT_PURGE_EVERY_MS: '86400000', KAFKA_NAMESPACE: namespace });
    clients = connectContent(service.address, 20000);
    const deps = service.running.deps;
    await deps.access.handlers[I.memberAdded.type](I.memberAdded.create('tests', admin.userId, { organizationId: org, userId: admin.userId, role: 'admin' }, org));
    await deps.access.handlers[I.memberAdded.type](I.memberAdded.create('tests', reader.userId, { organizationId: org, userId: reader.userId, role: 'read' }, org));
    spaceId = (await clients.spaces.createSpace({ organizationId: org, title: 'Renderer' }, { caller: admin })).id;
    const r = await clients.revisions.importTree(
      {
        spaceId,
        tree: TREE.map((e) => contentRevisionsV1.ImportTreeEntry.fromJSON(e)),
        files: [],
        updateCurrent: true,
        revisionKey: '',
        git: { oid: 'b'.repeat(40), message: 'Docs' },
        reusableContents: { items: INCLUDES.map((e) => contentRevisionsV1.ImportedReusableContent.fromJSON(e)) },
      },
      { caller: admin },
    );
    pages = r.pages;
    firstRevision = r.revisionId;
    // the service's start (its Kafka topics) takes longer than the tier's default on a loaded machine
  }, 60_000);
  afterAll(async () => {
    clients?.close();
    await service?.stop();
  });

  const document = async (pageId: string, dereference: boolean, caller = reader, revisionId = '') =>
    documentFromMessage(
      (await clients.revisions.getPageDocument({ revision: { spaceId, revisionId, metadata: true }, pageId, dereferenceReusableContents: dereference }, { caller })).document!,
    ) as Json;

  test('as stored: the reusable-content blocks stay references', async () => {
    const doc = await document(pages['README.md'], false);
    expect(types(doc.nodes)).toEqual(['paragraph', 'reusable-content', 'reusable-content']);
    expect(doc.nodes[1].data.ref).toMatchObject({ kind: 'reusable-content' });
  });

  test('dereferenced: each block is replaced by the blocks of its content (and of the contents it includes), keys kept unique', async () => {
    const doc = await document(pages['README.md'], true);
    expect(types(doc.nodes)).toEqual(['paragraph', 'paragraph', 'paragraph', 'paragraph', 'paragraph']);
    const text = JSON.stringify(doc);
    expect(text.split('This is in ').length - 1).toBe(2);
    expect(text.split('Write to support.').length - 1).toBe(2);
    const keys = doc.nodes.map((n: Json) => n.key).filter(Boolean);
    expect(new Set(keys).size).toBe(keys.length);
    const install = await document(pages['guide/install.md'], true);
    expect(types(install.nodes)).toEqual(['paragraph']);
    expect(JSON.stringify(install)).toContain('Write to support.');
    // a revision by id answers the same
    expect(await document(pages['README.md'], true, reader, firstRevision)).toEqual(doc);
  });

  test("page reads and a reusable content's document take dereferenced too", async () => {
    const revision = { spaceId, revisionId: '', metadata: true };
    const read = (format: string, dereference?: boolean) =>
      clients.revisions.getPage({ revision, pageId: pages['README.md'], path: '', format, evaluated: false, dereferenceReusableContents: dereference }, { caller: reader });
    const inlined = (await read('document', true)).page!.document!;
    expect(types(documentFromMessage(inlined.document!).nodes as Json[])).toEqual(['paragraph', 'paragraph', 'paragraph', 'paragraph', 'paragraph']);
    expect(types(documentFromMessage((await read('document')).page!.document!.document!).nodes as Json[])).toContain('reusable-content');
    const markdown = (await read('markdown', true)).page!.document!.markdown!;
    expect(markdown).toContain('Write to support.');
    expect(markdown).not.toContain('{% include');
    expect((await read('markdown')).page!.document!.markdown).toContain('{% include "/reusable-content/');
    // a reusable content's document: the contents it includes inlined
    const contents = (await clients.revisions.listPages(revision, { caller: reader })).reusableContents;
    const beta = contents.find((c) => c.title === 'Beta')!.id;
    const content = (dereference: boolean) =>
      clients.revisions.getReusableContent({ revision, reusableContentId: beta, dereferenceReusableContents: dereference }, { caller: reader });
    expect(JSON.stringify(documentFromMessage((await content(true)).document!))).toContain('Write to support.');
    expect(types(documentFromMessage((await content(false)).document!).nodes as Json[])).toEqual(['paragraph', 'reusable-content']);
  });

  test('meta links: none named, so an empty list of alternates', async () => {
    const links = await clients.revisions.getPageMetaLinks({ revision: { spaceId, revisionId: '', metadata: true }, pageId: pages['guide/install.md'] }, { caller: reader });
    expect(links).toMatchObject({ alternates: [], revisionId: firstRevision });
    expect(links.canonical).toBeUndefined();
  });

  test('a group has no document: not found; its meta links answer', async () => {
    await expect(document(pages['Reference'], true)).rejects.toMatchObject({ kind: 'not_found', message: 'Page document not found.' });
    const links = await clients.revisions.getPageMetaLinks({ revision: { spaceId, revisionId: '', metadata: true }, pageId: pages['Reference'] }, { caller: reader });
    expect(links.alternates).toEqual([]);
  });

  test('a page the revision does not hold, a caller who cannot see the space: not found', async () => {
    await expect(document('no-such-page', false)).rejects.toMatchObject({ kind: 'not_found', message: 'Page not found.' });
    await expect(document(pages['README.md'], true, stranger)).rejects.toMatchObject({ kind: 'not_found' });
    await expect(clients.revisions.getPageMetaLinks({ revision: { spaceId, revisionId: '', metadata: true }, pageId: 'no-such-page' }, { caller: reader })).rejects.toMatchObject({
      kind: 'not_found',
    });
    await expect(
      clients.revisions.getPageMetaLinks({ revision: { spaceId, revisionId: '', metadata: true }, pageId: pages['README.md'] }, { caller: stranger }),
    ).rejects.toMatchObject({
      kind: 'not_found',
    });
  });
});
