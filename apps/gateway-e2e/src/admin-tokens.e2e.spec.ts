import { startSystem, SystemUnderTest } from '@bindery/shared/testing';
import { http } from './http-client';

describe('revoking a token', () => {
  let sut: SystemUnderTest;
  beforeAll(async () => {
    // No gateway cache: a revoked token must fail on the very next request. (How long the cache may
    // keep a token is TokenCache's rule, tested without wall-clock bounds in libs/gateway/http.)
    sut = await startSystem({ AUTH_CACHE_TTL_MS: '0' }, { services: ['identity'] });
  });
  afterAll(() => sut?.stop());

  it('stops the token working at once when the gateway keeps no cache', async () => {
    const admin = http(sut.baseUrl, sut.adminToken);
    const user = (await admin.post('/admin/users', { email: 'revoked@example.com', displayName: 'R' })).body;
    const token = (await admin.post(`/admin/users/${user.id}/tokens`, {})).body;
    const client = http(sut.baseUrl, token.token);
    expect((await client.get('/v1/user')).status).toBe(200);
    expect((await admin.delete(`/admin/users/${user.id}/tokens/${token.id}`)).status).toBe(205);
    expect((await client.get('/v1/user')).status).toBe(401);
    // Idempotent: the token did not exist any more.
    expect((await admin.delete(`/admin/users/${user.id}/tokens/${token.id}`)).status).toBe(204);
  });
});
