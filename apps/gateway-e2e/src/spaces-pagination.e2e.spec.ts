import { assertErrorBody, sharedSystem, SystemUnderTest } from '@bindery/shared/testing';
import { createOrganization, createUser, TestUser } from './fixtures';
import { Client, http, walk } from './http-client';

describe('spaces through the gateway: pagination', () => {
  const TOTAL = 1000;
  let sut: SystemUnderTest;
  let ada: TestUser;
  let api: Client;

  /** A new organization of ada's: content answers for it on the next request. */
  const organization = (title: string): Promise<string> => createOrganization(sut, ada, title);

  beforeAll(async () => {
    sut = await sharedSystem();
    ada = await createUser(sut, 'ada', 'spaces.test');
    api = http(sut.baseUrl, ada.token);
  });

  // Longer than the tier: creates and walks thousands of spaces.
  it(`walks ${TOTAL} spaces 7 at a time, each exactly once, as an admin and as a reader`, async () => {
    const orgId = await organization('Many spaces');
    const created: string[] = [];
    // Creations in one organization run one after the other (its tree lock); under 20 at once, the
    // service gives up on some with a 409 "try again" once its transaction retries are spent: the
    // client does what the answer says.
    const create = async (n: number): Promise<string> => {
      for (let attempt = 1; ; attempt++) {
        const res = await api.post(`/v1/orgs/${orgId}/spaces`, { title: `Space ${n}` });
        if (res.status === 201) return res.body.id;
        if (res.status !== 409 || attempt === 5) throw new Error(`create space ${n}: ${res.status} ${JSON.stringify(res.body)}`);
        assertErrorBody(409, res.body);
      }
    };
    for (let i = 0; i < TOTAL; i += 20) {
      created.push(...(await Promise.all(Array.from({ length: Math.min(20, TOTAL - i) }, (_, j) => create(i + j)))));
    }
    expect(new Set(created).size).toBe(TOTAL);

    const expectWalk = async (client: Client) => {
      let pages = 0;
      const items = await walk<{ id: string }>(client, `/v1/orgs/${orgId}/spaces`, 7, (body) => {
        pages++;
        expect(body.count).toBe(TOTAL);
        expect(body.items.length).toBeLessThanOrEqual(7);
        if (body.next) expect(body.items.length).toBe(7);
      });
      const ids = items.map((s) => s.id);
      expect(ids.length).toBe(TOTAL);
      expect(new Set(ids).size).toBe(TOTAL);
      expect([...ids].sort()).toEqual([...created].sort());
      expect(pages).toBe(Math.ceil(TOTAL / 7));
    };
    await expectWalk(api);

    const reader = await createUser(sut, 'reader', 'spaces.test');
    const invited = await api.post(`/v1/orgs/${orgId}/invites`, { emails: [{ email: reader.email, role: 'read' }] });
    expect(invited.status).toBe(200);
    const readerApi = http(sut.baseUrl, reader.token);
    // The invited reader sees every space on their first request.
    const seen = await readerApi.get(`/v1/orgs/${orgId}/spaces?limit=1`);
    expect({ status: seen.status, count: seen.body?.count }).toEqual({ status: 200, count: TOTAL });
    await expectWalk(readerApi);
    // What the reader may do with them.
    const first = (await readerApi.get(`/v1/orgs/${orgId}/spaces?limit=1`)).body.items[0];
    expect(first.permissions).toMatchObject({ view: true, access: true, admin: false, edit: false, comment: false });
  }, 600_000);
});
