import { startSystem, SystemUnderTest } from '@bindery/shared/testing';
import { http } from './http-client';

describe('specs through the gateway', () => {
  let sut: SystemUnderTest;
  beforeAll(async () => {
    sut = await startSystem({}, { services: ['identity', 'specs'] });
  });
  afterAll(() => sut?.stop());

  it('answers GET /admin/services/specs with the caller it saw', async () => {
    const admin = http(sut.baseUrl, sut.adminToken);
    const r = await admin.get('/admin/services/specs');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ service: 'specs', callerUserId: expect.any(String) });
  });
});
