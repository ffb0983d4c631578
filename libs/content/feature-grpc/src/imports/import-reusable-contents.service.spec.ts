import { contentRevisionsV1 } from '@bindery/shared/contracts';
import { randomBytes } from 'node:crypto';
import { connectContent, officialPage, officialReusableContent, officialRevision } from '@bindery/content/client';
import { IdentityEvents as I } from '@bindery/identity/client';
import { identityStandIn } from '@bindery/identity/projection';
import { ServiceUnderTest, startServiceUnderTest } from '@bindery/shared/testing';
import { documentFromMessage } from '@bindery/shared/contracts';
import type { ContentDeps } from '../content-deps';
import { contentServiceWith } from '../content-server';

const admin = { userId: `admin-${randomBytes(3).toString('hex')}`, isInstanceAdmin: false };
const reader = { userId: `reader-${randomBytes(3).toString('hex')}`, isInstanceAdmin: false };
const stranger = { userId: `stranger-${randomBytes(3).toString('hex')}`, isInstanceAdmin: false };
const org = `org-${randomBytes(3).toString('hex')}`;
const namespace = `it${randomBytes(3).toString('hex')}.`;

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const COMMIT = 'b'.repeat(40);
const BLOB = 'c'.repeat(40);

describe('reusable contents: imported with a tree, kept by later revisions, read by id (in process, real MongoDB and Kafka)', () => {
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

  const newSpace = async () => (await clients.spaces.createSpace({ organizationId: org, title: 'Includes' }, { caller: admin })).id;
  const importTree = async (spaceId: string, tree: unknown[], reusable?: unknown[], key = '') => {
    const r = await clients.revisions.importTree(
      {
        spaceId,
        tree: tree.map((e) => contentRevisionsV1.ImportTreeEntry.fromJSON(e)),
        files: [],
        updateCurrent: true,
        revisionKey: key,
        git: { oid: COMMIT, message: 'Docs' },
        reusableContents: reusable ? { items: reusable.map((e) => contentRevisionsV1.ImportedReusableContent.fromJSON(e)) } : undefined,
      },
      { caller: admin },
    );
    return { ...r, reusable: r.reusableContents };
  };
  const revision = async (spaceId: string, revisionId = '') =>
    officialRevision((await clients.revisions.getRevision({ spaceId, revisionId, metadata: true }, { caller: admin })).revision!) as Json;
  const page = async (spaceId: string, pageId: string, format = 'document') =>
    officialPage(
      (await clients.revisions.getPage({ revision: { spaceId, revisionId: '', metadata: true }, pageId, path: '', format, evaluated: false }, { caller: admin })).page!,
    ) as Json;
  const reusableContent = (spaceId: string, id: string, caller = admin, revisionId = '') =>
    clients.revisions.getReusableContent({ revision: { spaceId, revisionId, metadata: true }, reusableContentId: id }, { caller });

  const TREE = [
    { source: 'README.md', markdown: '# Welcome\n\n{% include ".gitbook/includes/beta.md" %}\n' },
    { source: 'guide/install.md', markdown: '# Install\n\nFirst:\n\n{% include "../.gitbook/includes/beta.md" %}\n\n{% include "../.gitbook/includes/support.md" %}\n' },
  ];
  const INCLUDES = [
    {
      source: '.gitbook/includes/beta.md',
      markdown: '---\ntitle: Beta warning\n---\n\nThis is in **beta**. See [install](../../guide/install.md).\n',
      title: 'Beta warning',
      oid: BLOB,
    },
    { source: '.gitbook/includes/support.md', markdown: '# Support\n\nWrite to us.\n' },
  ];

  test('an import stores its reusable contents; includes resolve relative to the page file; the revision and its reads answer them', async () => {
    const spaceId = await newSpace();
    const r = await importTree(spaceId, TREE, INCLUDES);
    const beta = r.reusable['.gitbook/includes/beta.md'];
    const support = r.reusable['.gitbook/includes/support.md'];
    expect(beta).toBeTruthy();
    expect(support).toBeTruthy();
    const rev = await revision(spaceId);
    expect(rev.reusableContents).toEqual([
      { id: beta, title: 'Beta warning', document: expect.any(String), git: { oid: BLOB, path: '.gitbook/includes/beta.md' } },
      { id: support, title: 'Support', document: expect.any(String) },
    ]);
    const install = await page(spaceId, r.pages['guide/install.md']);
    expect(install.document.nodes.filter((n: Json) => n.type === 'reusable-content').map((n: Json) => n.data.ref)).toEqual([
      { kind: 'reusable-content', reusableContent: beta },
      { kind: 'reusable-content', reusableContent: support },
    ]);
    const readme = await page(spaceId, r.pages['README.md']);
    expect(readme.document.nodes[0].data.ref).toEqual({ kind: 'reusable-content', reusableContent: beta });
    const read = await reusableContent(spaceId, beta);
    expect(officialReusableContent(read.reusableContent!)).toEqual(rev.reusableContents[0]);
    const document = documentFromMessage(read.document!);
    expect(document.object).toBe('document');
    // the reusable content's own links resolve against the tree, relative to its file
    const refs = JSON.stringify(document);
    expect(refs).toContain(`"page":"${r.pages['guide/install.md']}"`);
    expect(refs).toContain('beta');
  });

  test('kept by later revisions, the same ids on a re-import (matched by source), and gone when the tree drops them', async () => {
    const spaceId = await newSpace();
    const first = await importTree(spaceId, TREE, INCLUDES);
    // a later edit that is not an import keeps them
    await clients.revisions.applyChanges(
      {
        spaceId,
        baseRevisionId: '',
        updateCurrent: true,
        revisionType: 'edits',
        mergedFrom: '',
        changesJson: JSON.stringify([
          {
            operation: 'update_page',
            page: first.pages['README.md'],
            document: { markdown: '# Welcome\n\nEdited.\n\n{% include "/reusable-content/' + first.reusable['.gitbook/includes/support.md'] + '" %}\n' },
          },
        ]),
        revertRevisionId: '',
      },
      { caller: admin },
    );
    const edited = await revision(spaceId);
    expect(edited.reusableContents.map((c: Json) => c.id)).toEqual(Object.values(first.reusable));
    const readme = await page(spaceId, first.pages['README.md']);
    expect(readme.document.nodes.at(-1).data.ref).toEqual({ kind: 'reusable-content', reusableContent: first.reusable['.gitbook/includes/support.md'] });
    expect((await page(spaceId, first.pages['README.md'], 'markdown')).markdown).toContain(`{% include "/reusable-content/${first.reusable['.gitbook/includes/support.md']}" %}`);

    const second = await importTree(spaceId, TREE, [
      { ...INCLUDES[1], markdown: '# Support (new)\n\nWrite again.\n' },
      { source: '.gitbook/includes/new.md', markdown: 'New.\n' },
    ]);
    expect(second.reusable['.gitbook/includes/support.md']).toBe(first.reusable['.gitbook/includes/support.md']);
    const rev = await revision(spaceId);
    expect(rev.reusableContents.map((c: Json) => [c.id, c.title])).toEqual([
      [first.reusable['.gitbook/includes/support.md'], 'Support (new)'],
      [second.reusable['.gitbook/includes/new.md'], 'new'],
    ]);
    await expect(reusableContent(spaceId, first.reusable['.gitbook/includes/beta.md'])).rejects.toMatchObject({ kind: 'not_found' });
    // the older revision still holds it
    const old = await reusableContent(spaceId, first.reusable['.gitbook/includes/beta.md'], admin, first.revisionId);
    expect(officialReusableContent(old.reusableContent!).title).toBe('Beta warning');
    // an import without reusable contents keeps the base's
    await importTree(spaceId, TREE);
    expect((await revision(spaceId)).reusableContents.map((c: Json) => c.id)).toEqual(rev.reusableContents.map((c: Json) => c.id));
  });

  test("a change request's head brought up to date takes an import's reusable contents; merged back, the space keeps them", async () => {
    const spaceId = await newSpace();
    const start = await importTree(spaceId, TREE, INCLUDES);
    // a change request's head: a revision on the current one that does not move the space
    const head = await clients.revisions.applyChanges(
      {
        spaceId,
        baseRevisionId: start.revisionId,
        updateCurrent: false,
        revisionType: 'edits',
        mergedFrom: '',
        changesJson: JSON.stringify([{ operation: 'insert_page', title: 'Draft', document: { markdown: 'Draft.' } }]),
        revertRevisionId: '',
      },
      { caller: admin },
    );
    const next = await importTree(spaceId, TREE, [INCLUDES[0], { source: '.gitbook/includes/new.md', markdown: 'New.\n' }]);
    const merge = (mode: string, base: string, headId: string) =>
      clients.revisions.mergeRevisions({ spaceId, baseRevisionId: base, headRevisionId: headId, mode, mergedFrom: '', idempotencyKey: '' }, { caller: admin });
    const updated = await merge('update', start.revisionId, head.revisionId);
    expect(updated.result).toBe('update');
    expect((await revision(spaceId, updated.revisionId)).reusableContents.map((c: Json) => c.id)).toEqual(Object.values(next.reusable));
    const merged = await merge('merge', next.revisionId, updated.revisionId);
    expect(merged.result).toBe('merge');
    expect((await revision(spaceId)).reusableContents.map((c: Json) => c.id)).toEqual(Object.values(next.reusable));
  });

  test('readers read them; a caller who cannot see the space, or an unknown id, is not found; bad input is refused', async () => {
    const spaceId = await newSpace();
    const r = await importTree(spaceId, TREE, INCLUDES);
    const beta = r.reusable['.gitbook/includes/beta.md'];
    expect(officialReusableContent((await reusableContent(spaceId, beta, reader)).reusableContent!).id).toBe(beta);
    await expect(reusableContent(spaceId, beta, stranger)).rejects.toMatchObject({ kind: 'not_found' });
    await expect(reusableContent(spaceId, 'nope-nope-nope')).rejects.toMatchObject({ kind: 'not_found' });
    await expect(importTree(spaceId, TREE, [{ source: 'a.md' }, { source: 'a.md' }])).rejects.toMatchObject({ kind: 'invalid' });
    await expect(importTree(spaceId, TREE, [{ source: 'a.md', oid: 'HEAD' }])).rejects.toMatchObject({ kind: 'invalid' });
  });
});
