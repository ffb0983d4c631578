import { startServiceUnderTest } from '@bindery/shared/testing';
import type { Caller } from '@bindery/platform/grpc';
import { loadStructure } from '@bindery/sites/data-access';
import { structureProblems } from '@bindery/sites/domain';
import { hex, SitesHarness, startSites } from './testing/sites-harness';

/**
 * Many structure changes at once on one site. Each is computed from the structure it read; only
 * the compare-and-set on the site's structure version (changeStructure → bumpStructure) keeps two
 * computed from the same state from both applying: without it, two site spaces added at once take
 * the same order, and a move computed before a delete leaves a gap.
 */
describe('concurrent changes of one site structure (in process, real MongoDB)', () => {
  let h: SitesHarness;
  const org = `org-${hex()}`;
  let editor: Caller;

  beforeAll(async () => {
    // As if every change came to another replica: no queue in the process, the compare-and-set alone.
    h = await startSites(startServiceUnderTest, { SITES_QUEUE_STRUCTURE_CHANGES: 'false' });
    editor = await h.member(org, 'edit');
    for (let i = 0; i < 40; i += 1) h.content.addSpace(`cc-${i}`, org, `Space ${i}`);
  }, 60_000);
  afterAll(() => h?.stop());

  const as = { caller: () => ({ caller: editor }) };

  it('keeps every container’s orders a permutation of 0..n-1 and the count right through concurrent moves, sorts, adds and deletes', async () => {
    const site = await h.site(org);
    const ref = { organizationId: org, siteId: site._id, page: undefined };
    const sections = [];
    for (let i = 0; i < 5; i += 1) sections.push(await h.clients.structure.createSection({ ...ref, spaceId: `cc-${i}` }, as.caller()));
    const target = sections[0].id;
    for (let i = 5; i < 12; i += 1) await h.clients.structure.addSiteSpace({ ...ref, spaceId: `cc-${i}`, sectionId: target }, as.caller());
    let next = 12;
    const outcomes: Record<string, number> = {};
    const count = (p: Promise<unknown>) =>
      p.then(
        () => void (outcomes.ok = (outcomes.ok ?? 0) + 1),
        (err: { kind?: string }) => {
          // a refusal, never a broken structure: the item moved or deleted was deleted meanwhile, or contention outlasted the retries
          expect(['not_found', 'invalid', 'conflict', 'unavailable']).toContain(err.kind);
          outcomes[err.kind!] = (outcomes[err.kind!] ?? 0) + 1;
        },
      );
    for (let round = 0; round < 4; round += 1) {
      const structure = await h.clients.structure.getStructure(ref, as.caller());
      const top = structure.items.map((i) => (i.section ? { type: 'site-section', id: i.section.id } : { type: 'site-section-group', id: i.sectionGroup!.id }));
      const everySection = structure.items.flatMap((i) => (i.section ? [i.section] : i.sectionGroup!.sections));
      const spaces = everySection.find((s) => s.id === target)!.siteSpaces.map((ss) => ss.id);
      const pick = <T>(xs: T[]) => xs[Math.floor(Math.random() * xs.length)];
      const calls: Array<Promise<unknown>> = [];
      for (let i = 0; i < 6; i += 1) {
        const id = pick(spaces);
        const anchor = pick(spaces.filter((x) => x !== id));
        calls.push(
          h.clients.structure.sortStructure(
            {
              ...ref,
              item: { type: 'site-space', id },
              position: i % 3 === 0 ? {} : i % 2 ? { before: { type: 'site-space', id: anchor } } : { after: { type: 'site-space', id: anchor } },
            },
            as.caller(),
          ),
        );
      }
      for (let i = 0; i < 3; i += 1) {
        const item = pick(top);
        const anchor = pick(top.filter((x) => x.id !== item.id));
        calls.push(h.clients.structure.sortStructure({ ...ref, item, position: { before: anchor } }, as.caller()));
      }
      for (let i = 0; i < 4; i += 1) calls.push(h.clients.structure.addSiteSpace({ ...ref, spaceId: `cc-${next++ % 40}`, sectionId: target }, as.caller()));
      calls.push(h.clients.structure.moveSiteSpace({ ...ref, id: pick(spaces), position: { before: { type: 'site-space', id: pick(spaces) } } }, as.caller()));
      calls.push(h.clients.structure.deleteSiteSpace({ ...ref, id: pick(spaces) }, as.caller()));
      for (let i = 0; i < 2; i += 1) {
        calls.push(h.clients.structure.createSection({ ...ref, spaceId: `cc-${next++ % 40}` }, as.caller()));
        calls.push(h.clients.structure.createSectionGroup({ ...ref, title: `Group ${round}.${i}`, sectionIds: i ? [pick(top).id] : [] }, as.caller()));
      }
      await Promise.all(calls.map(count));
      const stored = (await h.deps.sites.get(org, site._id))!;
      const state = await loadStructure(h.deps, stored);
      const problems = structureProblems(state);
      expect(problems.filter((p) => p.includes('orders'))).toEqual([]);
      expect(problems).toEqual([]);
      expect(stored.siteSpaces).toBe(state.siteSpaces.length);
    }
    // most changes went through (contention is retried, not refused)
    expect(outcomes.ok).toBeGreaterThan(50);
  }, 120_000);

  it('gives items appended to one level at the same moment distinct places', async () => {
    const site = await h.site(org);
    const ref = { organizationId: org, siteId: site._id, page: undefined };
    const first = await h.clients.structure.createSection({ ...ref, spaceId: 'cc-0' }, as.caller());
    const calls = [
      ...Array.from({ length: 6 }, (_, i) => h.clients.structure.createSectionGroup({ ...ref, title: `Group ${i}`, sectionIds: [] }, as.caller())),
      ...Array.from({ length: 4 }, (_, i) => h.clients.structure.createSection({ ...ref, spaceId: `cc-${i + 1}` }, as.caller())),
      ...Array.from({ length: 6 }, (_, i) => h.clients.structure.addSiteSpace({ ...ref, spaceId: `cc-${i + 10}`, sectionId: first.id }, as.caller())),
    ];
    const answers = await Promise.allSettled(calls);
    // Contention may outlast the retries on a loaded machine (a refusal the client can repeat);
    // what went through took distinct places.
    for (const a of answers) if (a.status === 'rejected') expect(['conflict', 'unavailable']).toContain((a.reason as { kind?: string }).kind);
    expect(answers.filter((a) => a.status === 'fulfilled').length).toBeGreaterThan(8);
    const stored = (await h.deps.sites.get(org, site._id))!;
    const state = await loadStructure(h.deps, stored);
    expect(structureProblems(state)).toEqual([]);
    expect(stored.siteSpaces).toBe(state.siteSpaces.length);
  }, 60_000);
});
