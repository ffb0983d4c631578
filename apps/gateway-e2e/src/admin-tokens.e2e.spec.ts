import { startSystem, SystemUnderTest } from '@bindery/shared/testing';
import { http } from './http-client';

describe('revoking a token', () => {
  let sut: SystemUnderTest;
  beforeAll(async () => {
    sut = await startSystem({ AUTH_CACHE_TTL_MS: '1000' });
  });
  afterAll(() => sut?.stop());

  it('stops the token working within the gateway cache bound', async () => {
    const admin = http(sut.baseUrl, sut.adminToken);
    const user = (await admin.post('/admin/users', { email: 'revoked@example.com', displayName: 'R' })).body;
    const token = (await admin.post(`/admin/users/${user.id}/tokens`, {})).body;
    const client = http(sut.baseUrl, token.token);
    expect((await client.get('/v1/user')).status).toBe(200);
    expect((await admin.delete(`/admin/users/${user.id}/tokens/${token.id}`)).status).toBe(205);
    const revokedAt = Date.now();
    let status = 200;
    while (status === 200 && Date.now() - revokedAt < 5000) {
      status = (await client.get('/v1/user')).status;
      if (status === 200) await new Promise((r) => setTimeout(r, 50));
    }
    expect(status).toBe(401);
    expect(Date.now() - revokedAt).toBeLessThanOrEqual(1000 + 250);
    // Idempotent: the token did not exist any more.
    expect((await admin.delete(`/admin/users/${user.id}/tokens/${token.id}`)).status).toBe(204);
  });
});
