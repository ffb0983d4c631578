import { connectSearch } from '@bindery/search/client';
import { startServiceUnderTest, ServiceUnderTest } from '@bindery/shared/testing';
import { searchService } from './search-server';

describe('search service (in process, real MongoDB and Kafka)', () => {
  let service: ServiceUnderTest<unknown>;
  let clients: ReturnType<typeof connectSearch>;

  beforeAll(async () => {
    service = await startServiceUnderTest(searchService);
    clients = connectSearch(service.address, 5000);
  });
  afterAll(async () => {
    clients?.close();
    await service?.stop();
  });

  test('answers a caller and refuses an anonymous call', async () => {
    const caller = { userId: 'u1', isInstanceAdmin: false };
    expect(await clients.search.ping({}, { caller })).toEqual({ service: 'search', callerUserId: 'u1' });
    await expect(clients.search.ping({})).rejects.toMatchObject({ kind: 'unauthenticated' });
  });
});
