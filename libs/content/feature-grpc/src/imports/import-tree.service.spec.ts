import { contentRevisionsV1 } from '@bindery/shared/contracts';
import { randomBytes } from 'node:crypto';
import { connectContent, officialFile, officialPage, officialRevision } from '@bindery/content/client';
import { IdentityEvents as I } from '@bindery/identity/client';
import { identityStandIn } from '@bindery/identity/projection';
import { ServiceUnderTest, startServiceUnderTest } from '@bindery/shared/testing';
import type { ContentDeps } from '../content-deps';
import { contentServiceWith } from '../content-server';

const admin = { userId: `admin-${randomBytes(3).toString('hex')}`, isInstanceAdmin: false };
const reader = { userId: `reader-${randomBytes(3).toString('hex')}`, isInstanceAdmin: false };
const org = `org-${randomBytes(3).toString('hex')}`;
const namespace = `it${randomBytes(3).toString('hex')}.`;

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
const COMMIT = 'a'.repeat(40);

describe('ImportTree: a Git import as one revision (in process, real MongoDB and Kafka)', () => {
  let service: ServiceUnderTest<ContentDeps>;
  let clients: ReturnType<typeof connectContent>;

  beforeAll(async () => {
    service = await startServiceUnderTest(contentServiceWith(Date.now, identityStandIn), { CONTENT_PURGE_EVERY_MS: '86400000', KAFKA_NAMESPACE: namespace });
    clients = connectContent(service.address, 20000);
    const deps = service.running.deps;
    await deps.access.handlers[I.memberAdded.type](I.memberAdded.create('tests', admin.userId, { organizationId: org, userId: admin.userId, role: 'admin' }, org));
    await deps.access.handlers[I.memberAdded.type](I.memberAdded.create('tests', reader.userId, { organizationId: org, userId: reader.userId, role: 'read' }, org));
  });
  afterAll(async () => {
    clients?.close();
    await service?.stop();
  });

  const newSpace = async () => (await clients.spaces.createSpace({ organizationId: org, title: 'Git' }, { caller: admin })).id;
  const importTree = async (spaceId: string, tree: unknown[], extra: { key?: string; caller?: typeof admin; updateCurrent?: boolean; files?: Json[] } = {}) => {
    const r = await clients.revisions.importTree(
      {
        spaceId,
        tree: tree.map((e) => contentRevisionsV1.ImportTreeEntry.fromJSON(e)),
        files: (extra.files ?? []).map((f) => ({ paths: f.paths, name: f.name, contentType: 'image/png', data: f.data, stagedId: '' })),
        updateCurrent: extra.updateCurrent ?? true,
        revisionKey: extra.key ?? '',
        git: { oid: COMMIT, message: 'Docs: the guide' },
        reusableContents: undefined,
      },
      { caller: extra.caller ?? admin },
    );
    return r;
  };
  const pages = async (spaceId: string, revisionId = '') =>
    (await clients.revisions.listPages({ spaceId, revisionId, metadata: true }, { caller: admin })).pages.map(officialPage) as Json[];
  const page = async (spaceId: string, pageId: string, revisionId = '') =>
    officialPage(
      (await clients.revisions.getPage({ revision: { spaceId, revisionId, metadata: true }, pageId, path: '', format: 'document', evaluated: false }, { caller: admin })).page!,
    ) as Json;
  const refsOf = (node: Json): Json[] => [...(node.data?.ref ? [node.data.ref] : []), ...(node.nodes ?? []).flatMap(refsOf)];
  // the revisions collection, read directly: no RPC lists a space's revisions
  const revisionsOf = async (spaceId: string) => (service.running.deps.revisions as unknown as { db: import('mongodb').Db }).db.collection('revisions').countDocuments({ spaceId });

  const TREE = [
    { source: 'README.md', markdown: '# Welcome\n\nSee [the install](guide/install.md) and ![logo](.gitbook/assets/logo.png).\n' },
    {
      source: 'group:Guides',
      type: 'group',
      title: 'Guides',
      children: [
        {
          source: 'guide/README.md',
          markdown: '# Guide\n\nBack [home](../README.md), on to [install](install.md#steps).\n',
          children: [{ source: 'guide/install.md', markdown: '# Install\n\n## Steps\n\n![same bytes, another name](<../.gitbook/assets/logo (1).png>)\n' }],
        },
      ],
    },
  ];
  const FILES = [{ paths: ['.gitbook/assets/logo.png', '.gitbook/assets/logo (1).png'], name: 'logo.png', data: PNG }];

  test('one revision: groups, nesting, relative links and assets by path, the commit recorded', async () => {
    const spaceId = await newSpace();
    const r = await importTree(spaceId, TREE, { files: FILES, key: 'git:run-1' });
    const tree = await pages(spaceId);
    expect(tree.map((p) => [p.type, p.title])).toEqual([
      ['document', 'Welcome'],
      ['group', 'Guides'],
    ]);
    expect(tree[1].pages.map((p: Json) => p.title)).toEqual(['Guide']);
    expect(tree[1].pages[0].pages.map((p: Json) => p.title)).toEqual(['Install']);
    expect(r.pages).toEqual({ 'README.md': tree[0].id, 'group:Guides': tree[1].id, 'guide/README.md': tree[1].pages[0].id, 'guide/install.md': tree[1].pages[0].pages[0].id });
    // one file for both names (same bytes), every path answered
    expect(new Set(Object.values(r.files)).size).toBe(1);
    const readme = await page(spaceId, r.pages['README.md']);
    expect(refsOf(readme.document)).toEqual(
      expect.arrayContaining([
        { kind: 'page', page: r.pages['guide/install.md'] },
        { kind: 'file', file: r.files['.gitbook/assets/logo.png'] },
      ]),
    );
    const guide = await page(spaceId, r.pages['guide/README.md']);
    expect(refsOf(guide.document)).toEqual(
      expect.arrayContaining([
        { kind: 'page', page: r.pages['README.md'] },
        { kind: 'anchor', anchor: 'steps', page: r.pages['guide/install.md'] },
      ]),
    );
    const install = await page(spaceId, r.pages['guide/install.md']);
    expect(refsOf(install.document)).toEqual([{ kind: 'file', file: r.files['.gitbook/assets/logo (1).png'] }]);
    const revision = officialRevision((await clients.revisions.getRevision({ spaceId, revisionId: r.revisionId, metadata: true }, { caller: admin })).revision!);
    expect(revision.git).toMatchObject({ oid: COMMIT, message: 'Docs: the guide' });
    expect((await clients.spaces.getSpace({ spaceId }, { caller: admin })).revision).toBe(r.revisionId);
  });

  test('the same key again answers the first revision and writes nothing', async () => {
    const spaceId = await newSpace();
    const first = await importTree(spaceId, TREE, { files: FILES, key: 'git:run-2' });
    const before = await revisionsOf(spaceId);
    const again = await importTree(spaceId, TREE, { files: FILES, key: 'git:run-2' });
    expect(again.revisionId).toBe(first.revisionId);
    expect(await revisionsOf(spaceId)).toBe(before);
  });

  test('a re-import keeps matched pages (same ids), moves them, inserts new ones, deletes the rest and reuses stored files', async () => {
    const spaceId = await newSpace();
    const first = await importTree(spaceId, TREE, { files: FILES });
    const next = [
      { source: 'README.md', page: first.pages['README.md'], markdown: '# Welcome\n\nNew text.\n' },
      { source: 'guide/install.md', page: first.pages['guide/install.md'], markdown: '# Install\n\nNow top level.\n' },
      { source: 'faq.md', markdown: '# FAQ\n\n![logo](.gitbook/assets/logo.png)\n' },
    ];
    const second = await importTree(spaceId, next, { files: FILES });
    const tree = await pages(spaceId);
    expect(tree.map((p) => [p.id, p.title])).toEqual([
      [first.pages['README.md'], 'Welcome'],
      [first.pages['guide/install.md'], 'Install'],
      [second.pages['faq.md'], 'FAQ'],
    ]);
    expect(second.files['.gitbook/assets/logo.png']).toBe(first.files['.gitbook/assets/logo.png']);
    const files = (await clients.revisions.listFiles({ revision: { spaceId, revisionId: '', metadata: true }, page: undefined }, { caller: admin })).files.map(officialFile);
    expect(files).toHaveLength(1);
  });

  test('link pages, slugs of file names, SUMMARY.md titles, front matter cover and layout as page fields', async () => {
    const spaceId = await newSpace();
    const COVERED =
      '---\ndescription: Start here\ncover: .gitbook/assets/logo.png\ncoverY: -12\ncoverHeight: 320\nlayout:\n  width: wide\n  cover:\n    visible: true\n    size: full\n  title:\n    visible: false\n  tags:\n    visible: false\nextra: kept by git-sync, not by content\n---\n\n# From the file\n\nText.\n';
    const tree = [
      { source: 'README.md', markdown: COVERED },
      {
        source: 'integrations/reference/README.md',
        title: 'Install the CLI',
        slug: 'reference',
        markdown: '# Install the CLI\n\nSteps.\n',
        children: [
          { source: 'integrations/configurations.md', title: 'Configure', slug: 'configurations', markdown: '# Configure\n' },
          { source: 'link:https://github.com/x/examples', type: 'link', title: 'GitHub examples', href: 'https://github.com/x/examples' },
        ],
      },
      { source: 'link:https://example.com/', type: 'link', title: 'Elsewhere', href: 'https://example.com/' },
      { source: 'drafts/old.md', hidden: true, markdown: '# Old draft\n' },
      { source: 'drafts/shown.md', hidden: true, markdown: '---\nhidden: false\n---\n\n# Shown anyway\n' },
    ];
    const r = await importTree(spaceId, tree, { files: FILES });
    const listed = await pages(spaceId);
    expect(listed.map((p) => [p.type, p.title, p.hidden ?? false])).toEqual([
      ['document', 'From the file', false],
      ['document', 'Install the CLI', false],
      ['link', 'Elsewhere', false],
      ['document', 'Old draft', true],
      ['document', 'Shown anyway', false],
    ]);
    expect(listed[1].slug).toBe('reference');
    expect(listed[1].pages.map((p: Json) => [p.type, p.slug ?? null, p.title])).toEqual([
      ['document', 'configurations', 'Configure'],
      ['link', null, 'GitHub examples'],
    ]);
    expect(listed[1].pages[1]).toMatchObject({ kind: 'link', target: { kind: 'url', url: 'https://github.com/x/examples' } });
    expect(listed[2].target).toEqual({ kind: 'url', url: 'https://example.com/' });
    const readme = await page(spaceId, r.pages['README.md']);
    expect(readme.cover).toEqual({ ref: { kind: 'file', file: r.files['.gitbook/assets/logo.png'] }, yPos: -12, height: 320 });
    expect(readme.layout).toMatchObject({ width: 'wide', cover: true, coverSize: 'full', title: false, tags: false, description: true });
    expect(readme.description).toBe('Start here');

    // re-imported: a page that became a link is a new page, the link that became a file too; a cover removed from the file is removed
    const again = [
      { source: 'README.md', page: r.pages['README.md'], markdown: '# From the file\n\nText.\n' },
      { source: 'integrations/reference/README.md', type: 'link', page: r.pages['integrations/reference/README.md'], title: 'Now a link', href: 'https://example.org/' },
    ];
    const second = await importTree(spaceId, again, { files: FILES });
    const after = await pages(spaceId);
    expect(after.map((p) => [p.type, p.title])).toEqual([
      ['document', 'From the file'],
      ['link', 'Now a link'],
    ]);
    expect(second.pages['integrations/reference/README.md']).not.toBe(r.pages['integrations/reference/README.md']);
    const plain = await page(spaceId, r.pages['README.md']);
    expect(plain.cover).toBeUndefined();
    expect(plain.layout).toMatchObject({ width: 'default', title: true });
  });

  test('standalone (update_current false) creates the revision without moving the space', async () => {
    const spaceId = await newSpace();
    const before = (await clients.spaces.getSpace({ spaceId }, { caller: admin })).revision;
    const r = await importTree(spaceId, TREE, { files: FILES, updateCurrent: false });
    expect((await clients.spaces.getSpace({ spaceId }, { caller: admin })).revision).toBe(before);
    expect((await pages(spaceId, r.revisionId)).map((p) => p.title)).toEqual(['Welcome', 'Guides']);
  });

  test('refused: readers (403), a tree that is not one, a bad commit id (400); nothing written', async () => {
    const spaceId = await newSpace();
    const before = await revisionsOf(spaceId);
    await expect(importTree(spaceId, TREE, { caller: reader })).rejects.toMatchObject({ kind: 'forbidden' });
    await expect(importTree(spaceId, [{ source: 'a.md' }, { source: 'a.md' }])).rejects.toMatchObject({ kind: 'invalid' });
    await expect(importTree(spaceId, [])).rejects.toMatchObject({ kind: 'invalid' });
    await expect(
      clients.revisions.importTree(
        { spaceId, tree: TREE.map((e) => contentRevisionsV1.ImportTreeEntry.fromJSON(e)), files: [], updateCurrent: true, revisionKey: '', git: { oid: 'HEAD', message: '' } },
        { caller: admin },
      ),
    ).rejects.toMatchObject({ kind: 'invalid' });
    expect(await revisionsOf(spaceId)).toBe(before);
  });
});
