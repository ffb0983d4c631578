import { assertErrorBody, startSystem, SystemUnderTest } from '@bindery/shared/testing';
import { CR, editChangeRequest, openChangeRequest } from './change-request-fixtures';
import { createSpace } from './content-fixtures';
import { createOrganization, createUser } from './fixtures';
import { Client, http } from './http-client';

const MERGES = 40;

/**
 * Many merges into one space at once, with a request budget shorter than all of them take: they take
 * turns (docs/merge.md), so none is recomputed away (no 409 after lost races) and one that cannot start
 * in time is refused 429 with Retry-After — never a 503 while every service is up. Every merge
 * answered 200 is in the space. (Without the turns, 40 merges racing for the space end in 409s after
 * their recomputations, or in 503s past the budget on a busy machine.)
 */
describe('concurrent merges into one space', () => {
  let sut: SystemUnderTest;
  let admin: Client;
  let orgId: string;

  beforeAll(async () => {
    sut = await startSystem({ REQUEST_BUDGET_MS: '3000' }, { services: ['identity', 'content', 'change-requests'] });
    const owner = await createUser(sut, 'merger');
    orgId = await createOrganization(sut, owner, 'Merges');
    admin = http(sut.baseUrl, owner.token);
  });
  afterAll(async () => {
    await sut?.stop();
  });

  it(`${MERGES} merges at once: each answers 200 or 429 (with Retry-After); every 200 is merged and its page present`, async () => {
    const space = await createSpace(admin, orgId, { title: 'Busy' });
    const spaceId = space.id as string;
    const crs: Array<{ id: string; title: string }> = [];
    for (let i = 0; i < MERGES; i++) {
      const cr = await openChangeRequest(admin, spaceId, `Change ${i}`);
      const title = `Page ${i}`;
      await editChangeRequest(admin, spaceId, cr.id as string, [{ operation: 'insert_page', title, document: { markdown: `Text ${i}.` } }]);
      crs.push({ id: cr.id as string, title });
    }

    const answers = await Promise.all(crs.map((cr) => admin.post(`${CR(spaceId, cr.id)}/merge`)));

    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => ![200, 429].includes(s))).toEqual([]);
    for (const r of answers.filter((a) => a.status !== 200)) assertErrorBody(r.status, r.body);
    for (const r of answers.filter((a) => a.status === 429)) expect(Number(r.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    const merged = crs.filter((_, i) => answers[i].status === 200 && answers[i].body.result === 'merge');
    expect(merged.length).toBeGreaterThan(0);

    const pages = await admin.get(`/v1/spaces/${spaceId}/content/pages`);
    expect(pages.status).toBe(200);
    const titles = new Set((pages.body.pages as Array<{ title: string }>).map((p) => p.title));
    for (const cr of merged) {
      const got = await admin.get(CR(spaceId, cr.id));
      expect({ title: cr.title, status: got.body.status, present: titles.has(cr.title) }).toEqual({ title: cr.title, status: 'merged', present: true });
    }
    // a refused merge can be sent again and lands
    const refused = crs.filter((_, i) => answers[i].status === 429);
    for (const cr of refused.slice(0, 2)) expect((await admin.post(`${CR(spaceId, cr.id)}/merge`)).status).toBe(200);
  });
});
