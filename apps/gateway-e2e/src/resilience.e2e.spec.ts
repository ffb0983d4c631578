import { assertErrorBody, eventually, readEvents, startSystem, SystemUnderTest } from '@bindery/shared/testing';
import { createUser, TestUser } from './fixtures';
import { http, walk } from './http-client';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('identity going away while requests run', () => {
  let sut: SystemUnderTest;
  let user: TestUser;

  beforeAll(async () => {
    sut = await startSystem({}, { services: ['identity'], split: true });
    user = await createUser(sut, 'resilient');
  });
  afterAll(() => sut?.stop());

  it('answers 503 in the error body meanwhile, recovers, and loses no acknowledged write or event', async () => {
    const api = http(sut.baseUrl, user.token);
    const acknowledged: string[] = [];
    const statuses = new Map<number, number>();
    let running = true;
    let n = 0;
    const worker = async () => {
      while (running) {
        const res = await api.post('/v1/orgs', { title: `Org ${n++}` }).catch(() => ({ status: 0, body: undefined }));
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        if (res.status === 201) acknowledged.push(res.body.id);
        else if (res.status === 503) assertErrorBody(503, res.body);
        else await sleep(20);
      }
    };
    const workers = Array.from({ length: 4 }, worker);

    // Writes are landing… (the waits below follow running workers and a process restarting)
    await eventually(async () => {
      if (acknowledged.length < 10) throw new Error(`only ${acknowledged.length} writes so far`);
    });
    const beforeOutage = acknowledged.length;
    await sut.stopIdentity('SIGKILL'); // no chance to finish anything: a crash, not a shutdown
    // …then the gateway answers 503 while identity is gone.
    await eventually(async () => {
      if ((statuses.get(503) ?? 0) < 5) throw new Error('no 503 yet');
    });
    const during503 = statuses.get(503) ?? 0;
    await sut.restartIdentity();
    const afterRestart = acknowledged.length;
    // Writes succeed again once the gateway's channel reconnects (bounded by its reconnect backoff).
    await eventually(async () => {
      if (acknowledged.length < afterRestart + 5) throw new Error(`only ${acknowledged.length - afterRestart} writes since the restart`);
    }, 20000);
    running = false;
    await Promise.all(workers);

    // Every answer was a success or a 503 — never a 500 or a dropped connection.
    expect([...statuses.keys()].sort()).toEqual([201, 503]);
    expect(beforeOutage).toBeGreaterThan(0);
    expect(during503).toBeGreaterThan(0);
    expect(acknowledged.length).toBeGreaterThan(afterRestart);

    // Every acknowledged write is there…
    const listed = new Set((await walk<{ id: string }>(api, '/v1/orgs', 1000)).map((o) => o.id));
    expect(acknowledged.filter((id) => !listed.has(id))).toEqual([]);

    // …and so is its event, exactly as recorded, even for writes just before the crash.
    const wanted = new Set(acknowledged);
    const events = await readEvents(sut.env.KAFKA_BROKERS.split(','), `${sut.env.KAFKA_NAMESPACE}bindery.identity.v1`, (evs) =>
      [...wanted].every((id) => evs.some((e) => e.type === 'identity.organization.created' && e.subject === id)),
    );
    const published = new Set(events.filter((e) => e.type === 'identity.organization.created').map((e) => e.subject));
    expect(acknowledged.filter((id) => !published.has(id))).toEqual([]);
  });
});
