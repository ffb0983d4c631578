import { sharedSystem, SystemUnderTest } from '@bindery/shared/testing';
import { http } from './http-client';

describe('git-sync through the gateway', () => {
  let sut: SystemUnderTest;
  beforeAll(async () => {
    sut = await sharedSystem();
  });

  it('answers GET /admin/services/git-sync with the caller it saw', async () => {
    const admin = http(sut.baseUrl, sut.adminToken);
    const r = await admin.get('/admin/services/git-sync');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ service: 'git-sync', callerUserId: expect.any(String) });
  });
});
