import { ContentEvents as C } from '@bindery/content/client';
import { applyEvent, createKafka, ensureTopics, EventEnvelope, EventHandlers, topicOf } from '@bindery/platform/events';
import type { Caller } from '@bindery/platform/grpc';
import { mongoProcessedEvents } from '@bindery/platform/mongo';
import { eventually, infraEnv, startServiceUnderTest } from '@bindery/shared/testing';
import { loadStructure } from '@bindery/sites/data-access';
import { structureProblems } from '@bindery/sites/domain';
import { contentHandlers } from './content-events';
import { hex, SitesHarness, startSites } from './testing/sites-harness';

const GROUP = 'sites.content';

describe('sites follow content’s events (in process, real MongoDB and Kafka)', () => {
  const ns = `c${hex()}.`;
  let h: SitesHarness;
  let handlers: EventHandlers;
  const org = `org-${hex()}`;
  let editor: Caller;
  let reader: Caller;

  beforeAll(async () => {
    h = await startSites(startServiceUnderTest, { KAFKA_NAMESPACE: ns });
    handlers = contentHandlers(h.deps);
    editor = await h.member(org, 'edit');
    reader = await h.member(org, 'read');
    for (const id of ['ev-a', 'ev-b', 'ev-c', 'ev-kafka', 'ev-t']) h.content.addSpace(id, org, `Space ${id}`);
  }, 60_000);
  afterAll(() => h?.stop());

  const as = (caller: Caller) => ({ caller });
  /** Applies the event as the consumer group does (once per event id, in a transaction with its marker). */
  const apply = (event: EventEnvelope) => applyEvent(mongoProcessedEvents(h.deps.db), GROUP, handlers[event.type], event);
  const deleted = (spaceId: string, organizationId = org) => C.spaceDeleted.create('tests', spaceId, { organizationId, spaceId, changedFields: [] }, organizationId);
  const restored = (spaceId: string) => C.spaceRestored.create('tests', spaceId, { organizationId: org, spaceId, changedFields: [] }, org);
  const purged = (spaceId: string) => C.spacePurged.create('tests', spaceId, { organizationId: org, spaceId }, org);
  const stored = async (siteId: string) => {
    const site = (await h.deps.sites.get(org, siteId))!;
    return { site, state: await loadStructure(h.deps, site) };
  };

  /** A site with two sections: [ev-a, ev-b] and [ev-c, ev-a]. */
  async function siteWithSpaces(fields = {}) {
    const site = await h.site(org, fields);
    const ref = { organizationId: org, siteId: site._id, page: undefined };
    const one = await h.clients.structure.createSection({ ...ref, spaceId: 'ev-a', title: 'One' }, as(editor));
    const b = await h.clients.structure.addSiteSpace({ ...ref, spaceId: 'ev-b', sectionId: one.id }, as(editor));
    const two = await h.clients.structure.createSection({ ...ref, spaceId: 'ev-c', title: 'Two' }, as(editor));
    const a2 = await h.clients.structure.addSiteSpace({ ...ref, spaceId: 'ev-a', sectionId: two.id }, as(editor));
    return { site, ref, one, two, a: one.siteSpaces[0], b, c: two.siteSpaces[0], a2 };
  }

  it('hides the site spaces of a deleted space everywhere they are shown, and shows them again where they were when it is restored', async () => {
    const { site, ref, one, a, b, c, a2 } = await siteWithSpaces({ published: true });
    expect(await apply(deleted('ev-a'))).toBe(true);
    const hidden = await stored(site._id);
    expect(hidden.site.siteSpaces).toBe(2);
    expect(hidden.state.sections.find((s) => s._id === one.id)!.defaultSiteSpaceId).toBe(b.id);
    expect(structureProblems(hidden.state)).toEqual([]);
    expect((await h.clients.structure.listSiteSpaces(ref, as(reader))).items.map((x) => x.id).sort()).toEqual([b.id, c.id].sort());
    expect((await h.clients.structure.listSiteSpaces(ref, as(reader))).page?.count).toBe(2);
    const structure = await h.clients.structure.getStructure(ref, as(reader));
    expect(structure.items.map((i) => i.section!.siteSpaces.map((x) => x.id))).toEqual([[b.id], [c.id]]);
    const published = await h.clients.structure.getPublishedSite(ref, as(reader));
    expect(published.structure!.items.flatMap((i) => i.section!.siteSpaces.map((x) => x.spaceId))).not.toContain('ev-a');
    await expect(h.clients.structure.updateSiteSpace({ ...ref, siteSpaceId: a.id, path: 'x' }, as(editor))).rejects.toMatchObject({ kind: 'not_found' });

    expect(await apply(restored('ev-a'))).toBe(true);
    const shown = await stored(site._id);
    expect(shown.site.siteSpaces).toBe(4);
    const again = await h.clients.structure.getStructure(ref, as(reader));
    expect(again.items.map((i) => i.section!.siteSpaces.map((x) => x.id))).toEqual([
      [a.id, b.id],
      [c.id, a2.id],
    ]);
    expect(structureProblems(shown.state)).toEqual([]);
  });

  it('applies each event once', async () => {
    const { site } = await siteWithSpaces();
    const event = deleted('ev-b');
    const before = (await stored(site._id)).site.structureVersion;
    expect(await apply(event)).toBe(true);
    expect(await apply(event)).toBe(false);
    const after = await stored(site._id);
    expect(after.site.structureVersion).toBe(before + 1);
    expect(after.site.siteSpaces).toBe(3);
    await apply(restored('ev-b'));
  });

  it('removes the site spaces of a purged space for good, keeping orders dense and defaults right', async () => {
    h.content.addSpace('ev-p', org, 'Purged later');
    const site = await h.site(org);
    const ref = { organizationId: org, siteId: site._id, page: undefined };
    const p = await h.clients.structure.addSiteSpace({ ...ref, spaceId: 'ev-p' }, as(editor));
    const keep = await h.clients.structure.addSiteSpace({ ...ref, spaceId: 'ev-c' }, as(editor));
    await apply(deleted('ev-p'));
    expect(await apply(purged('ev-p'))).toBe(true);
    const { site: after, state } = await stored(site._id);
    expect(state.siteSpaces.map((ss) => [ss._id, ss.order])).toEqual([[keep.id, 0]]);
    expect(after).toMatchObject({ siteSpaces: 1, defaultSiteSpaceId: keep.id });
    expect(state.siteSpaces.some((ss) => ss._id === p.id)).toBe(false);
  });

  it('removes the site spaces of a space transferred to another organization from the sites it left', async () => {
    const { site } = await siteWithSpaces();
    const ref = { organizationId: org, siteId: site._id, page: undefined };
    await h.clients.structure.addSiteSpace({ ...ref, spaceId: 'ev-t' }, as(editor));
    const other = `org-${hex()}`;
    expect(await apply(C.spaceTransferred.create('tests', 'ev-t', { spaceId: 'ev-t', fromOrganizationId: org, organizationId: other }, other))).toBe(true);
    const { site: after, state } = await stored(site._id);
    expect(state.siteSpaces.map((ss) => ss.spaceId)).not.toContain('ev-t');
    expect(after.siteSpaces).toBe(4);
    expect(structureProblems(state)).toEqual([]);
  });

  it('leaves other organizations’ sites alone', async () => {
    const { site } = await siteWithSpaces();
    await apply(deleted('ev-c', `org-${hex()}`));
    expect((await stored(site._id)).site.siteSpaces).toBe(4);
  });

  it('hears content’s events through its consumer group', async () => {
    const site = await h.site(org);
    const ref = { organizationId: org, siteId: site._id, page: undefined };
    await h.clients.structure.addSiteSpace({ ...ref, spaceId: 'ev-kafka' }, as(editor));
    const kafka = createKafka(infraEnv().KAFKA_BROKERS.split(','), 'sites-content-test');
    const topic = `${ns}${topicOf('content')}`;
    await ensureTopics(kafka, [topic]);
    const producer = kafka.producer();
    await producer.connect();
    try {
      await producer.send({ topic, acks: -1, messages: [{ key: 'ev-kafka', value: JSON.stringify(deleted('ev-kafka')) }] });
      await eventually(async () => expect((await stored(site._id)).site.siteSpaces).toBe(0), 30_000);
    } finally {
      await producer.disconnect();
    }
  }, 60_000);
});
