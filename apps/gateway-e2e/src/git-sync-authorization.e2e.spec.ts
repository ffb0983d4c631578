import { assertMatchesSpec, sharedSystem, SystemUnderTest } from '@bindery/shared/testing';
import { createSpace, unknownId } from './content-fixtures';
import { organizationWithEveryRole } from './fixtures';
import { http } from './http-client';
import { CALLERS, callerClients, Client, matrixMismatches, MatrixRow } from './matrix';

interface Ctx {
  spaceId: string;
  url: string;
}

const IMPORT = (ctx: Ctx) => ({ url: ctx.url, ref: 'refs/heads/main' });
const EXPORT = (ctx: Ctx) => ({ url: ctx.url, ref: 'refs/heads/main', commitMessage: 'Sync' });

// Import and export need the right to edit the space (editors and up; comment and read members see it:
// 403). git/info: whoever can read the space. The guest sees nothing of the space and another
// organization's admin nothing of the organization: 404. No token or a bad one: 401. A started run
// (204) fails on its own later (the URL names no server): the answer is what is checked here.
//                                                                     admin create review edit comment read guest stranger bad none
const ROWS: Array<MatrixRow<Ctx>> = [
  {
    name: 'POST /v1/spaces/{spaceId}/git/import',
    call: (c, ctx) => c.post(`/v1/spaces/${ctx.spaceId}/git/import`, IMPORT(ctx)),
    expect: [204, 204, 204, 204, 403, 403, 404, 404, 401, 401],
  },
  {
    name: 'POST /v1/spaces/{unknown}/git/import',
    call: (c, ctx) => c.post(`/v1/spaces/${unknownId()}/git/import`, IMPORT(ctx)),
    expect: [404, 404, 404, 404, 404, 404, 404, 404, 401, 401],
  },
  {
    name: 'POST /v1/spaces/{spaceId}/git/export',
    call: (c, ctx) => c.post(`/v1/spaces/${ctx.spaceId}/git/export`, EXPORT(ctx)),
    expect: [204, 204, 204, 204, 403, 403, 404, 404, 401, 401],
  },
  {
    name: 'POST /v1/spaces/{unknown}/git/export',
    call: (c, ctx) => c.post(`/v1/spaces/${unknownId()}/git/export`, EXPORT(ctx)),
    expect: [404, 404, 404, 404, 404, 404, 404, 404, 401, 401],
  },
  {
    name: 'GET /v1/spaces/{spaceId}/git/info',
    call: (c, ctx) => c.get(`/v1/spaces/${ctx.spaceId}/git/info`),
    expect: [200, 200, 200, 200, 200, 200, 404, 404, 401, 401],
  },
  {
    name: 'GET /v1/spaces/{unknown}/git/info',
    call: (c) => c.get(`/v1/spaces/${unknownId()}/git/info`),
    expect: [404, 404, 404, 404, 404, 404, 404, 404, 401, 401],
  },
];

describe('git sync authorization matrix', () => {
  let sut: SystemUnderTest;
  let clients: Record<(typeof CALLERS)[number], Client>;
  let ctx: Ctx;

  beforeAll(async () => {
    sut = await sharedSystem();
    const org = await organizationWithEveryRole(sut);
    clients = callerClients(sut, org);
    const admin = http(sut.baseUrl, org.members.admin.token);
    const spaceId = (await createSpace(admin, org.orgId, { title: 'Matrix git sync' })).id as string;
    // credentials in the URL, which no answer may repeat; the host is never reached (a reserved name)
    ctx = { spaceId, url: 'https://matrix:pw-matrix-Q7@git.example.invalid/org/repo.git' };
  }, 180_000);

  test('every role, another organization, a bad token and none', async () => {
    const mismatches = await matrixMismatches(ROWS, CALLERS, clients, ctx, (res) => {
      expect(JSON.stringify(res.body ?? '')).not.toContain('pw-matrix-Q7');
      if (res.status === 200) assertMatchesSpec('0.130.0', 'get', '/spaces/{spaceId}/git/info', 200, res.body);
    });
    expect(mismatches).toEqual([]);
  });

  test('strict bodies: unknown fields, missing fields and wrong types are 400; other transports are refused (400)', async () => {
    const admin = clients.admin;
    const bodies: Array<[string, unknown]> = [
      ['import', { ref: 'refs/heads/main' }],
      ['import', { url: ctx.url }],
      ['import', { url: ctx.url, ref: 'refs/heads/main', extra: 1 }],
      ['import', { url: ctx.url, ref: 'refs/heads/main', force: 'yes' }],
      ['import', { url: ctx.url, ref: 'refs/heads/main', timestamp: 'yesterday' }],
      ['import', { url: ctx.url, ref: 'refs/heads/main', gitInfo: { provider: 'bitbucket' } }],
      ['import', { url: ctx.url, ref: 'refs/heads/main', commitMessage: 'not an import field' }],
      ['export', { url: ctx.url, ref: 'refs/heads/main' }],
      ['export', { url: ctx.url, ref: 'refs/heads/main', commitMessage: 'x', standalone: true }],
      ['import', { url: 'file:///etc/passwd', ref: 'refs/heads/main' }],
      ['import', { url: 'ssh://git@example.com/a.git', ref: 'refs/heads/main' }],
      ['import', { url: 'ext::sh -c touch% /tmp/pwned', ref: 'refs/heads/main' }],
      ['import', { url: 'git@example.com:a/b.git', ref: 'refs/heads/main' }],
      ['import', { url: 'git://example.com/a.git', ref: 'refs/heads/main' }],
      ['import', { url: 'https://example.com/a.git', ref: 'main' }],
      ['import', { url: 'https://example.com/a.git', ref: 'refs/heads/main', repoProjectDirectory: '../outside' }],
      ['export', { url: 'https://example.com/a.git', ref: 'refs/heads/main', commitMessage: '   ' }],
    ];
    for (const [op, body] of bodies) {
      const res = await admin.post(`/v1/spaces/${ctx.spaceId}/git/${op}`, body);
      expect([op, JSON.stringify(body), res.status]).toEqual([op, JSON.stringify(body), 400]);
      expect(JSON.stringify(res.body)).not.toContain('pw-matrix-Q7');
    }
    const doc = (await http(sut.baseUrl).get('/openapi.json')).body;
    for (const op of ['import', 'export']) {
      const served = doc.paths[`/v1/spaces/{spaceId}/git/${op}`].post;
      expect(Object.keys(served.responses)).toEqual(expect.arrayContaining(['204', '400']));
      expect(served.requestBody.content['application/json'].schema.additionalProperties).toBe(false);
    }
    expect(doc.paths['/v1/spaces/{spaceId}/git/info'].get.responses['200']).toBeDefined();
  });
});
