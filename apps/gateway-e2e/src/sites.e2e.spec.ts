import { sharedSystem, SystemUnderTest } from '@bindery/shared/testing';
import { http } from './http-client';

describe('sites through the gateway', () => {
  let sut: SystemUnderTest;
  beforeAll(async () => {
    sut = await sharedSystem();
  });

  it('answers GET /admin/services/sites with the caller it saw', async () => {
    const admin = http(sut.baseUrl, sut.adminToken);
    const r = await admin.get('/admin/services/sites');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ service: 'sites', callerUserId: expect.any(String) });
  });
});
