import { randomBytes } from 'node:crypto';
import { ContentEvents as C } from '@bindery/content/client';
import type { EventDefinition } from '@bindery/platform/events';
import { connectSearch } from '@bindery/search/client';
import { startServiceUnderTest, ServiceUnderTest, waitForRun, FAST_RUN_SETTINGS } from '@bindery/shared/testing';
import { contentHandlers, SearchDeps, searchServiceWith } from './search-server';
import { ContentStandIn, StandInPage } from './testing/content-stand-in';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

const id = (prefix: string) => `${prefix}-${randomBytes(4).toString('hex')}`;
const admin = { userId: 'root', isInstanceAdmin: true };

/**
 * The service tier of search: the gRPC service in process on a real MongoDB, content's events
 * handed to its consumer's handlers (the Kafka path is covered end to end), content itself a stand-in.
 */
describe('search service (in process, real MongoDB and Kafka)', () => {
  const content = new ContentStandIn();
  let service: ServiceUnderTest<SearchDeps>;
  let clients: ReturnType<typeof connectSearch>;

  beforeAll(async () => {
    service = await startServiceUnderTest(
      searchServiceWith(() => content.clients()),
      { ...FAST_RUN_SETTINGS, SEARCH_FORMAT_CHECK_MS: '86400000' },
    );
    clients = connectSearch(service.address, 5000);
  });
  afterAll(async () => {
    clients?.close();
    await service?.stop();
  });

  /** Applies one of content's events as the consumer would. */
  async function deliver<T>(definition: EventDefinition<T>, subject: string, data: T): Promise<void> {
    await contentHandlers(service.running.deps)[definition.type](definition.create('content', subject, data));
  }

  /** A space with its first revision, indexed from content's events; answers its id. */
  async function spaceWith(org: string, readers: string[], pages: StandInPage[]): Promise<string> {
    const spaceId = id('space');
    content.addSpace(spaceId, org, `Space ${spaceId}`, readers);
    await deliver(C.spaceCreated, spaceId, { organizationId: org, spaceId, changedFields: [] });
    const revisionId = content.commit(spaceId, id('rev'), pages);
    await deliver(C.revisionCreated, spaceId, {
      organizationId: org,
      spaceId,
      revisionId,
      parentRevisionId: '',
      changedPages: pages.map((p) => p.id),
      deletedPages: [],
      isCurrent: true,
      type: 'edits',
    });
    return spaceId;
  }

  const searchSpace = async (spaceId: string, query: string, caller = { userId: 'reader', isInstanceAdmin: false }): Promise<Json[]> =>
    (await clients.search.searchSpace({ spaceId, query, page: undefined }, { caller })).pages as unknown as Json[];
  const searchOrg = async (organizationId: string, query: string, caller: { userId: string; isInstanceAdmin: boolean }): Promise<Json[]> =>
    (await clients.search.searchOrganization({ organizationId, query, page: undefined }, { caller })).spaces as unknown as Json[];

  test("a space's revisions are indexed from content's events: new pages are found, changed ones found by their new text, deleted ones no more", async () => {
    const org = id('org');
    const spaceId = await spaceWith(
      org,
      ['reader'],
      [
        { id: 'p1', title: 'Installing', lines: ['Download the archive and unpack it.', '# Upgrading', 'Replace the binary with the new release.'] },
        { id: 'p2', title: 'Glossary', lines: ['A revision is a version of a space.'] },
        { id: 'p3', title: 'Old notes', lines: ['The archive format changed twice.'] },
      ],
    );

    const first = await searchSpace(spaceId, 'archive');
    expect(first.map((p) => p.title).sort()).toEqual(['Installing', 'Old notes']);
    const upgrading = (await searchSpace(spaceId, 'binary'))[0];
    expect(upgrading).toMatchObject({ id: 'p1', spaceId, sections: [{ id: 'p1#upgrading', title: 'Upgrading', anchor: 'upgrading' }] });
    expect(upgrading.sections[0].body).toContain('binary');

    // The next revision changes p2 and deletes p3: only those are read again.
    const revisionId = content.commit(spaceId, id('rev'), [
      { id: 'p1', title: 'Installing', lines: ['Download the archive and unpack it.', '# Upgrading', 'Replace the binary with the new release.'] },
      { id: 'p2', title: 'Glossary', lines: ['A change request proposes edits to a space.'] },
    ]);
    await deliver(C.revisionCreated, spaceId, {
      organizationId: org,
      spaceId,
      revisionId,
      parentRevisionId: '',
      changedPages: ['p2'],
      deletedPages: ['p3'],
      isCurrent: true,
      type: 'edits',
    });

    expect((await searchSpace(spaceId, 'archive')).map((p) => p.title)).toEqual(['Installing']);
    expect((await searchSpace(spaceId, 'proposes')).map((p) => p.id)).toEqual(['p2']);
    expect(await searchSpace(spaceId, 'revision version')).toEqual([]);
  });

  test('a revision that is not the current one changes nothing', async () => {
    const org = id('org');
    const spaceId = await spaceWith(org, ['reader'], [{ id: 'p1', title: 'Home', lines: ['Welcome aboard.'] }]);
    await deliver(C.revisionCreated, spaceId, {
      organizationId: org,
      spaceId,
      revisionId: 'not-current',
      parentRevisionId: '',
      changedPages: ['p1'],
      deletedPages: [],
      isCurrent: false,
      type: 'edits',
    });
    expect((await searchSpace(spaceId, 'welcome')).map((p) => p.id)).toEqual(['p1']);
  });

  test('a space search is for its readers: a space the caller cannot read, a deleted one and an unknown one are all not found', async () => {
    const org = id('org');
    const spaceId = await spaceWith(org, ['reader'], [{ id: 'p1', title: 'Secrets', lines: ['The launch date is confidential.'] }]);
    const outsider = { userId: 'outsider', isInstanceAdmin: false };
    await expect(searchSpace(spaceId, 'launch', outsider)).rejects.toMatchObject({ kind: 'not_found' });
    await expect(searchSpace(id('space'), 'launch')).rejects.toMatchObject({ kind: 'not_found' });
    content.setLive(spaceId, false);
    await expect(searchSpace(spaceId, 'launch')).rejects.toMatchObject({ kind: 'not_found' });
    content.setLive(spaceId, true);
    expect((await searchSpace(spaceId, 'launch')).map((p) => p.id)).toEqual(['p1']);
  });

  test('an organization search answers only the spaces the caller can read, each with its matching pages', async () => {
    const org = id('org');
    const shared = await spaceWith(org, ['alice', 'bob'], [{ id: 'a1', title: 'Roadmap', lines: ['The roadmap for the next quarter.'] }]);
    const hidden = await spaceWith(org, ['bob'], [{ id: 'b1', title: 'Salaries', lines: ['The roadmap of salary reviews.'] }]);
    await spaceWith(id('org'), ['alice'], [{ id: 'c1', title: 'Elsewhere', lines: ['Another roadmap, in another organization.'] }]);

    const alice = await searchOrg(org, 'roadmap', { userId: 'alice', isInstanceAdmin: false });
    expect(alice.map((s) => s.id)).toEqual([shared]);
    expect(alice[0].pages.map((p: Json) => p.id)).toEqual(['a1']);
    const bob = await searchOrg(org, 'roadmap', { userId: 'bob', isInstanceAdmin: false });
    expect(bob.map((s) => s.id).sort()).toEqual([shared, hidden].sort());
    expect(await searchOrg(org, 'roadmap', { userId: 'stranger', isInstanceAdmin: false })).toEqual([]);
  });

  test('a search of given spaces answers those the caller can read, of that organization only; a site caller may ask it, not an organization search', async () => {
    const org = id('org');
    const open = await spaceWith(org, ['alice', 'site:tok1'], [{ id: 'a1', title: 'Comets', lines: ['Comets have tails.'] }]);
    const closed = await spaceWith(org, ['bob'], [{ id: 'b1', title: 'Comet budget', lines: ['What comets cost.'] }]);
    const unlisted = await spaceWith(org, ['alice'], [{ id: 'u1', title: 'More comets', lines: ['Comets again.'] }]);
    const foreign = await spaceWith(id('org'), ['alice'], [{ id: 'f1', title: 'Foreign comets', lines: ['Comets elsewhere.'] }]);
    const searchSpaces = async (spaceIds: string[], caller: { userId: string; isInstanceAdmin: boolean; site?: object }) => {
      const r = await clients.search.searchSpaces({ organizationId: org, spaceIds, query: 'comets', page: undefined }, { caller: caller as never });
      return { ids: r.spaces.map((s) => s.id).sort(), count: r.page?.count };
    };
    const alice = { userId: 'alice', isInstanceAdmin: false };
    expect(await searchSpaces([open, closed, foreign, open, 'no-such-space'], alice)).toEqual({ ids: [open], count: 1 });
    expect(await searchSpaces([open, unlisted], alice)).toEqual({ ids: [open, unlisted].sort(), count: 2 });
    expect(await searchSpaces([open, closed], { userId: 'bob', isInstanceAdmin: false })).toEqual({ ids: [closed], count: 1 });
    expect(await searchSpaces([], alice)).toEqual({ ids: [], count: 0 });
    const first = (await clients.search.searchSpaces({ organizationId: org, spaceIds: [open], query: 'comets', page: undefined }, { caller: alice })).spaces;
    expect(first).toEqual([{ id: open, title: `Space ${open}`, pages: [expect.objectContaining({ id: 'a1', title: 'Comets', spaceId: open })] }]);

    const site = { userId: 'site:tok1', isInstanceAdmin: false, site: { organizationId: org, siteId: 'site1', spaceIds: [open], tokenId: 'tok1' } };
    expect(await searchSpaces([open, unlisted], site)).toEqual({ ids: [open], count: 1 });
    await expect(clients.search.searchOrganization({ organizationId: org, query: 'comets', page: undefined }, { caller: site })).rejects.toMatchObject({ kind: 'forbidden' });
    await expect(
      searchSpaces(
        Array.from({ length: 1001 }, (_, i) => `s${i}`),
        alice,
      ),
    ).rejects.toMatchObject({ kind: 'invalid' });
  });

  test('a space transferred to another organization is searched there, no more in the first', async () => {
    const from = id('org');
    const to = id('org');
    const spaceId = await spaceWith(from, ['carol'], [{ id: 'p1', title: 'Migration', lines: ['Moving houses is hard.'] }]);
    content.addSpace(spaceId, to, 'Moved', ['carol']);
    await deliver(C.spaceTransferred, spaceId, { spaceId, fromOrganizationId: from, organizationId: to });
    const carol = { userId: 'carol', isInstanceAdmin: false };
    expect((await searchOrg(to, 'houses', carol)).map((s) => s.id)).toEqual([spaceId]);
    expect(await searchOrg(from, 'houses', carol)).toEqual([]);
  });

  test('an empty or overlong query is refused as invalid', async () => {
    const spaceId = await spaceWith(id('org'), ['reader'], [{ id: 'p1', title: 'Home', lines: ['Hello.'] }]);
    await expect(searchSpace(spaceId, '   ')).rejects.toMatchObject({ kind: 'invalid' });
    await expect(searchSpace(spaceId, 'x'.repeat(513))).rejects.toMatchObject({ kind: 'invalid' });
  });

  test('a rebuild reads every live space again, indexes what the events missed and drops what content no longer holds', async () => {
    const org = id('org');
    const gone = await spaceWith(org, ['reader'], [{ id: 'g1', title: 'Obsolete', lines: ['Deprecated telescopes.'] }]);
    // A space whose events never arrived: only the rebuild can index it.
    const missed = id('space');
    content.addSpace(missed, org, 'Missed', ['reader']);
    content.commit(missed, id('rev'), [{ id: 'm1', title: 'Telescopes', lines: ['Mirrors and lenses of telescopes.'] }]);
    content.setLive(gone, false);
    await expect(searchSpace(missed, 'telescopes')).resolves.toEqual([]);

    const { run } = await clients.search.rebuild({ spaceIds: [] }, { caller: admin });
    const done = await waitForRun(service.running.mongo.db, run!.id, 'completed');
    expect(done.result).toMatchObject({ pages: expect.any(Number) });
    expect((await searchSpace(missed, 'telescopes')).map((p) => p.id)).toEqual(['m1']);
    content.setLive(gone, true);
    // Dropped from the index: live again in content, it answers nothing until its next revision or rebuild.
    expect(await searchSpace(gone, 'telescopes')).toEqual([]);
  });

  test('rebuilds are for instance admins', async () => {
    await expect(clients.search.rebuild({ spaceIds: [] }, { caller: { userId: 'reader', isInstanceAdmin: false } })).rejects.toMatchObject({ kind: 'forbidden' });
  });
});
