import { sharedSystem, SystemUnderTest } from '@bindery/shared/testing';
import { deadLetterInContent } from './dead-letter-fixtures';
import { createUser } from './fixtures';
import { Client, http } from './http-client';
import { matrixMismatches, MatrixRow } from './matrix';

type Who = 'instanceAdmin' | 'user' | 'badToken' | 'noToken';
const WHO: Who[] = ['instanceAdmin', 'user', 'badToken', 'noToken'];

// Each dead-letter route × each kind of caller, with the expected status written out.
//                                                                                         instanceAdmin user bad none
const MATRIX: Array<MatrixRow<object, Who>> = [
  { name: 'GET /admin/services/identity/dead-letters', call: (c) => c.get('/admin/services/identity/dead-letters'), expect: [200, 403, 401, 401] },
  { name: 'GET /admin/services/content/dead-letters', call: (c) => c.get('/admin/services/content/dead-letters?limit=10'), expect: [200, 403, 401, 401] },
  { name: 'GET /admin/services/change-requests/dead-letters', call: (c) => c.get('/admin/services/change-requests/dead-letters'), expect: [200, 403, 401, 401] },
  { name: 'GET /admin/services/search/dead-letters', call: (c) => c.get('/admin/services/search/dead-letters'), expect: [200, 403, 401, 401] },
  {
    name: 'POST /admin/services/{service}/dead-letters/{id}/replay (no such letter)',
    call: (c) => c.post('/admin/services/content/dead-letters/0000000000000000000/replay'),
    expect: [404, 403, 401, 401],
  },
  { name: 'GET /admin/services/{unknown}/dead-letters', call: (c) => c.get('/admin/services/nothing-here/dead-letters'), expect: [400, 400, 401, 401] },
];

describe('dead letters under /admin', () => {
  let sut: SystemUnderTest;
  let clients: Record<Who, Client>;

  beforeAll(async () => {
    sut = await sharedSystem();
    const user = await createUser(sut, 'not-an-admin');
    clients = {
      instanceAdmin: http(sut.baseUrl, sut.adminToken),
      user: http(sut.baseUrl, user.token),
      badToken: http(sut.baseUrl, 'gb_api_this-token-was-never-issued'),
      noToken: http(sut.baseUrl),
    };
  });

  it('answers every caller as written, with 0 mismatches', async () => {
    expect(await matrixMismatches(MATRIX, WHO, clients, {})).toEqual([]);
  });

  it('lists in the standard envelope and documents both routes in /openapi.json', async () => {
    const list = await clients.instanceAdmin.get('/admin/services/search/dead-letters?limit=1');
    expect(list.body).toEqual({ items: [], count: 0 });
    const bad = await clients.instanceAdmin.get('/admin/services/search/dead-letters?limit=1001');
    expect(bad.status).toBe(400);
    const doc = (await http(sut.baseUrl).get('/openapi.json')).body;
    expect(doc.paths['/admin/services/{service}/dead-letters'].get.operationId).toBe('listDeadLetters');
    expect(doc.paths['/admin/services/{service}/dead-letters/{deadLetterId}/replay'].post.operationId).toBe('replayDeadLetter');
  });

  it('keeps an event a consumer gave up on, with where it came from, and replays it at most once', async () => {
    const letter = await deadLetterInContent(sut);
    expect(letter).toMatchObject({
      object: 'dead-letter',
      service: 'content',
      consumer: `${sut.env.KAFKA_NAMESPACE}content.identity-access`,
      topic: `${sut.env.KAFKA_NAMESPACE}bindery.identity.v1`,
      attempts: 5,
      event: { type: 'identity.team_member.added', data: { teamId: '' } },
    });
    expect((letter as unknown as { error: string }).error).toMatch(/empty/i);
    // The event with the same id behind it was applied, so the replay finds the marker and only removes the letter.
    const replay = await clients.instanceAdmin.post(`/admin/services/content/dead-letters/${letter.id}/replay`);
    expect(replay).toMatchObject({ status: 200, body: { applied: false } });
    expect((await clients.instanceAdmin.post(`/admin/services/content/dead-letters/${letter.id}/replay`)).status).toBe(404);
  });
});
