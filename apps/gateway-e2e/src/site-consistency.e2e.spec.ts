import { eventually, sharedSystem, SystemUnderTest } from '@bindery/shared/testing';
import { createSpace } from './content-fixtures';
import { createOrganization, createUser, TestUser } from './fixtures';
import { Client, http } from './http-client';

/**
 * How long a site takes to reflect what happens to one of its spaces in content (deleted, restored,
 * transferred to another organization): the time from content's answer until the site's own record
 * says so (its `siteSpaces` count and its site-space list), measured over several rounds. The site's
 * lists leave out a space the caller cannot read at once; the count follows content's event. The
 * figures are printed; the test fails only if a round does not converge.
 */
const ROUNDS = 8;

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};

describe('sites follow content’s space events (figures)', () => {
  let sut: SystemUnderTest;
  let owner: TestUser;
  let orgId: string;
  let otherOrgId: string;
  let admin: Client;

  beforeAll(async () => {
    sut = await sharedSystem();
    owner = await createUser(sut, 'consistency-owner');
    orgId = await createOrganization(sut, owner, 'Consistency org');
    otherOrgId = await createOrganization(sut, owner, 'Consistency target');
    admin = http(sut.baseUrl, owner.token);
  });

  /** Milliseconds from now until `check` holds (polled every 5 ms). */
  async function delayUntil(check: () => Promise<boolean>): Promise<number> {
    const start = performance.now();
    await eventually(
      async () => {
        if (!(await check())) throw new Error('not yet');
      },
      15000,
      5,
    );
    return performance.now() - start;
  }

  const siteSpacesOf = async (siteId: string) => {
    const site = await admin.get(`/v1/orgs/${orgId}/sites/${siteId}`);
    const list = await admin.get(`/v1/orgs/${orgId}/sites/${siteId}/site-spaces`);
    return { count: site.body.siteSpaces as number, spaces: (list.body.items as Array<{ space: { id: string } }>).map((ss) => ss.space.id) };
  };

  it('reflects a deleted, restored and transferred space in every site holding it', async () => {
    const delays = { deleted: [] as number[], restored: [] as number[], transferred: [] as number[] };
    for (let round = 0; round < ROUNDS; round++) {
      const kept = (await createSpace(admin, orgId, { title: `Kept ${round}` })).id as string;
      const moving = (await createSpace(admin, orgId, { title: `Moving ${round}` })).id as string;
      const sites = await Promise.all(
        ['One', 'Two'].map(async (t) => (await admin.post(`/v1/orgs/${orgId}/sites`, { title: `Consistency ${t} ${round}`, spaces: [kept, moving] })).body.id as string),
      );
      const holds = async (expected: string[]) => {
        for (const id of sites) {
          const s = await siteSpacesOf(id);
          if (s.count !== expected.length || s.spaces.join() !== expected.join()) return false;
        }
        return true;
      };

      expect((await admin.delete(`/v1/spaces/${moving}`)).status).toBe(205);
      delays.deleted.push(await delayUntil(() => holds([kept])));
      expect((await admin.post(`/v1/spaces/${moving}/restore`)).status).toBe(200);
      delays.restored.push(await delayUntil(() => holds([kept, moving])));
      expect((await admin.post(`/v1/spaces/${moving}/transfer`, { organization: otherOrgId })).status).toBe(200);
      delays.transferred.push(await delayUntil(() => holds([kept])));
    }
    const line = (name: string, v: number[]) => `${name}: p50 ${percentile(v, 50).toFixed(0)} ms, p99 ${percentile(v, 99).toFixed(0)} ms (${v.length} rounds, 2 sites each)`;
    console.log(['site consistency after content events', ...Object.entries(delays).map(([k, v]) => line(k, v))].join('\n'));
    for (const v of Object.values(delays)) expect(v).toHaveLength(ROUNDS);
  });
});
