import { randomBytes } from 'node:crypto';
import { connectContent, officialFile, officialPage, officialRevision } from '@bindery/content/client';
import { IdentityEvents as I } from '@bindery/identity/client';
import { siteCaller, SITE_TOKEN_REFUSAL } from '@bindery/platform/grpc';
import { documentFromMessage } from '@bindery/shared/contracts';
import { ServiceUnderTest, startServiceUnderTest } from '@bindery/shared/testing';
import { identityStandIn } from '@bindery/identity/projection';
import type { ContentDeps } from './content-deps';
import { contentServiceWith } from './content-server';

const admin = { userId: `admin-${randomBytes(3).toString('hex')}`, isInstanceAdmin: false };
const org = `org-${randomBytes(3).toString('hex')}`;
const otherOrg = `org-${randomBytes(3).toString('hex')}`;
const namespace = `sc${randomBytes(3).toString('hex')}.`;

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** What a failed call was refused with, or 'ok'. */
async function outcome(call: Promise<unknown>): Promise<string> {
  return call.then(
    () => 'ok',
    (err: { kind?: string }) => err.kind ?? 'error',
  );
}

describe('site token callers in content (in process, real MongoDB and Kafka)', () => {
  let service: ServiceUnderTest<ContentDeps>;
  let clients: ReturnType<typeof connectContent>;
  // published: in the scope; unlisted: same organization, not in it; foreign: another organization,
  // named by the scope's space ids but not its organization; deleted: in the scope, deleted.
  const ids = { published: '', unlisted: '', foreign: '', deleted: '' };
  let pageId = '';
  let site: ReturnType<typeof siteCaller>;

  beforeAll(async () => {
    service = await startServiceUnderTest(contentServiceWith(Date.now, identityStandIn), { CONTENT_PURGE_EVERY_MS: '86400000', KAFKA_NAMESPACE: namespace });
    clients = connectContent(service.address, 20000);
    const deps = service.running.deps;
    for (const o of [org, otherOrg])
      await deps.access.handlers[I.memberAdded.type](I.memberAdded.create('tests', admin.userId, { organizationId: o, userId: admin.userId, role: 'admin' }, o));
    const create = async (organizationId: string, title: string) => (await clients.spaces.createSpace({ organizationId, title }, { caller: admin })).id;
    ids.published = await create(org, 'Published');
    ids.unlisted = await create(org, 'Unlisted');
    ids.foreign = await create(otherOrg, 'Foreign');
    ids.deleted = await create(org, 'Deleted');
    await clients.spaces.deleteSpace({ spaceId: ids.deleted }, { caller: admin });
    for (const spaceId of [ids.published, ids.unlisted]) {
      const r = await clients.revisions.applyChanges(
        {
          spaceId,
          changesJson: JSON.stringify([{ operation: 'insert_page', title: 'Getting Started', document: { markdown: 'Welcome.' } }]),
          updateCurrent: true,
          baseRevisionId: '',
          revisionType: '',
          mergedFrom: '',
          revertRevisionId: '',
        },
        { caller: admin },
      );
      if (spaceId === ids.published) pageId = r.changes[0].pageId;
    }
    site = siteCaller({ organizationId: org, siteId: 'site1', tokenId: 'token1', spaceIds: [ids.published, ids.foreign, ids.deleted] });
  });
  afterAll(async () => {
    clients?.close();
    await service?.stop();
  });

  const reads = (spaceId: string, caller = site) => {
    const revision = { spaceId, revisionId: '', metadata: true };
    return {
      getSpace: () => clients.spaces.getSpace({ spaceId }, { caller }),
      getRevision: () => clients.revisions.getRevision(revision, { caller }),
      listPages: () => clients.revisions.listPages(revision, { caller }),
      getPageById: () => clients.revisions.getPage({ revision, pageId, path: '', format: 'document', evaluated: false }, { caller }),
      getPageByPath: () => clients.revisions.getPage({ revision, pageId: '', path: 'getting-started', format: 'markdown', evaluated: false }, { caller }),
      listFiles: () => clients.revisions.listFiles({ revision, page: undefined }, { caller }),
      getPageDocument: () => clients.revisions.getPageDocument({ revision, pageId, dereferenceReusableContents: true }, { caller }),
      getPageMetaLinks: () => clients.revisions.getPageMetaLinks({ revision, pageId }, { caller }),
    };
  };

  test("reads the content of its site's spaces, as a reader only", async () => {
    const r = reads(ids.published);
    const space = await r.getSpace();
    expect(space.id).toBe(ids.published);
    expect(space.permissions).toMatchObject({ view: true, comment: false, edit: false, review: false, merge: false, admin: false });
    expect(officialRevision((await r.getRevision()).revision!).pages.map((p: Json) => p.title)).toEqual(['Getting Started']);
    expect((await r.listPages()).pages.map(officialPage).map((p: Json) => p.path)).toEqual(['getting-started']);
    expect(officialPage((await r.getPageById()).page!)).toMatchObject({ id: pageId, title: 'Getting Started' });
    expect(officialPage((await r.getPageByPath()).page!).markdown).toContain('Welcome.');
    expect((await r.listFiles()).files.map(officialFile)).toEqual([]);
    expect(JSON.stringify(documentFromMessage((await r.getPageDocument()).document!))).toContain('Welcome.');
    expect(await r.getPageMetaLinks()).toMatchObject({ alternates: [] });
    await expect(clients.revisions.getFile({ revision: { spaceId: ids.published, revisionId: '', metadata: true }, fileId: 'nofile' }, { caller: site })).rejects.toMatchObject({
      kind: 'not_found',
      message: 'File not found.',
    });
  });

  test('every other space is not found: another of its organization, one of another organization, a deleted one', async () => {
    for (const spaceId of [ids.unlisted, ids.foreign, ids.deleted, 'nosuchspace']) {
      const results: Record<string, string> = {};
      for (const [name, call] of Object.entries(reads(spaceId))) results[name] = await outcome(call());
      expect({ spaceId, results }).toEqual({
        spaceId,
        results: {
          getSpace: 'not_found',
          getRevision: 'not_found',
          listPages: 'not_found',
          getPageById: 'not_found',
          getPageByPath: 'not_found',
          listFiles: 'not_found',
          getPageDocument: 'not_found',
          getPageMetaLinks: 'not_found',
        },
      });
    }
    // the same reads of the unlisted space are the admin's to make
    expect(await outcome(reads(ids.unlisted, admin).getPageById())).toBe('not_found'); // its page id is another
    expect(await outcome(reads(ids.unlisted, admin).getPageByPath())).toBe('ok');
  });

  test('everything else is refused, even on its own space, before any use case runs', async () => {
    const spaceId = ids.published;
    const revision = { spaceId, revisionId: '', metadata: true };
    const calls: Record<string, () => Promise<unknown>> = {
      applyChanges: () =>
        clients.revisions.applyChanges(
          {
            spaceId,
            changesJson: JSON.stringify([{ operation: 'insert_page', title: 'Defaced', document: {} }]),
            updateCurrent: true,
            baseRevisionId: '',
            revisionType: '',
            mergedFrom: '',
            revertRevisionId: '',
          },
          { caller: site },
        ),
      updateSpace: () => clients.spaces.updateSpace({ spaceId, title: 'Renamed' }, { caller: site }),
      deleteSpace: () => clients.spaces.deleteSpace({ spaceId }, { caller: site }),
      listSpaces: () => clients.spaces.listSpaces({ organizationId: org, page: undefined }, { caller: site }),
      listCollections: () => clients.collections.listCollections({ organizationId: org, page: undefined, nested: false }, { caller: site }),
      listLinks: () => clients.revisions.listLinks({ revision, pageId: '', status: '', page: undefined }, { caller: site }),
      listFileBacklinks: () => clients.revisions.listFileBacklinks({ revision, fileId: 'f', page: undefined }, { caller: site }),
      listUserGrants: () => clients.permissions.listUserGrants({ target: { kind: 'space', id: spaceId }, page: undefined }, { caller: site }),
    };
    for (const [name, call] of Object.entries(calls)) {
      const err = await call().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect({ name, err }).toMatchObject({ name, err: { kind: 'forbidden', message: SITE_TOKEN_REFUSAL } });
    }
    const after = await clients.spaces.getSpace({ spaceId }, { caller: admin });
    expect(after.title).toBe('Published');
    expect((await clients.revisions.listPages({ spaceId, revisionId: '', metadata: true }, { caller: admin })).pages.map(officialPage)).toHaveLength(1);
  });
});
