import { randomBytes } from 'node:crypto';
import { connectChangeRequests } from '@bindery/change-requests/client';
import { internalCaller } from '@bindery/platform/grpc';
import { startServiceUnderTest, ServiceUnderTest } from '@bindery/shared/testing';
import type { ChangeRequestsDeps } from './deps';
import { changeRequestsService } from './change-requests-server';

const at = '2026-01-01T00:00:00.000Z';

// In process, against the real MongoDB and Kafka; content is not called by SpaceCounts.
describe('SpaceCounts (change-requests service)', () => {
  const spaceId = `space-${randomBytes(3).toString('hex')}`;
  let service: ServiceUnderTest<ChangeRequestsDeps>;
  let clients: ReturnType<typeof connectChangeRequests>;

  beforeAll(async () => {
    service = await startServiceUnderTest(changeRequestsService, { CONTENT_GRPC_URL: '127.0.0.1:9' });
    clients = connectChangeRequests(service.address, 10000);
    const { changeRequests } = service.running.deps;
    for (const [n, status] of [
      [1, 'open'],
      [2, 'draft'],
      [3, 'open'],
    ] as const) {
      await changeRequests.insert(
        {
          _id: `${spaceId}-cr${n}`,
          organizationId: 'org',
          spaceId,
          number: n,
          status,
          subject: `cr${n}`,
          createdBy: 'u0',
          createdAt: at,
          updatedAt: at,
          revision: 'r1',
          revisionInitial: 'r1',
          contributors: ['u0'],
          requestedReviewers: [],
        },
        [],
      );
    }
  });
  afterAll(async () => {
    clients?.close();
    await service?.stop();
  });

  it("refuses a user's call, whatever spaces it names: this service cannot tell which spaces they see", async () => {
    const user = { userId: 'someone', isInstanceAdmin: false };
    await expect(clients.stats.spaceCounts({ spaceIds: [spaceId] }, { caller: user })).rejects.toMatchObject({ kind: 'forbidden' });
    await expect(clients.stats.spaceCounts({ spaceIds: [spaceId] }, { caller: { ...user, isInstanceAdmin: true } })).rejects.toMatchObject({ kind: 'forbidden' });
  });

  it('answers a service (the gateway asking for the spaces content showed the caller)', async () => {
    const { items } = await clients.stats.spaceCounts({ spaceIds: [spaceId, 'other'] }, { caller: internalCaller('gateway') });
    expect(items).toEqual([
      { spaceId, changeRequests: 3, changeRequestsOpen: 2, changeRequestsDraft: 1, comments: 0 },
      { spaceId: 'other', changeRequests: 0, changeRequestsOpen: 0, changeRequestsDraft: 0, comments: 0 },
    ]);
  });
});
