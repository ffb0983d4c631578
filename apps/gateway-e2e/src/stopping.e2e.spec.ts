import { Agent, get } from 'node:http';
import { eventually, startSystem, SystemUnderTest } from '@bindery/shared/testing';

// Every app exits within 2 s of SIGTERM (STOP_BUDGET in libs/platform/service-runtime), cleanly (exit
// code 0: every phase finished in its own bound, not cut off by the last-resort exit), while the
// gateway holds channels to the services and a client holds an idle keep-alive connection to it.
const LIMIT_MS = 2000;
const MONOLITH_LIMIT_MS = 2400;

function readyz(baseUrl: string, agent: Agent): Promise<number> {
  return new Promise((resolve, reject) => {
    get(`${baseUrl}/readyz`, { agent }, (res) => {
      res.resume();
      res.once('end', () => resolve(res.statusCode ?? 0));
    }).once('error', reject);
  });
}

async function timeStop(sut: SystemUnderTest, name: string): Promise<{ ms: number; code: number | null; signal: string | null }> {
  const child = sut.apps[name].child;
  const t0 = Date.now();
  await sut.stopService(name, 'SIGTERM');
  return { ms: Date.now() - t0, code: child.exitCode, signal: child.signalCode };
}

describe('stopping on SIGTERM', () => {
  let sut: SystemUnderTest;
  const agent = new Agent({ keepAlive: true });

  beforeAll(async () => {
    sut = await startSystem({}, { split: true });
  });
  afterAll(async () => {
    agent.destroy();
    await sut?.stop();
  });

  test('every gRPC service exits within 2 s, cleanly, with the gateway connected to it', async () => {
    // /readyz asks every service for its health: the gateway's channels are open.
    expect(await readyz(sut.baseUrl, agent)).toBe(200);
    const services = Object.keys(sut.ports);
    expect(services.length).toBeGreaterThan(0);
    for (const name of services) {
      const stopped = await timeStop(sut, name);
      expect({ name, ...stopped, ms: stopped.ms < LIMIT_MS ? 'within the limit' : stopped.ms }).toEqual({ name, ms: 'within the limit', code: 0, signal: null });
    }
  });

  test('the gateway exits within 2 s while a client holds an idle keep-alive connection', async () => {
    await readyz(sut.baseUrl, agent); // 503 now (the services are stopped); the connection stays open
    expect(Object.values(agent.freeSockets).flat().length).toBe(1);
    const stopped = await timeStop(sut, 'gateway');
    expect({ ...stopped, ms: stopped.ms < LIMIT_MS ? 'within the limit' : stopped.ms }).toEqual({ ms: 'within the limit', code: 0, signal: null });
  });
});

describe('stopping the monolith on SIGTERM', () => {
  let sut: SystemUnderTest;
  const agent = new Agent({ keepAlive: true });

  beforeAll(async () => {
    sut = await startSystem({}, { split: false });
  });
  afterAll(async () => {
    agent.destroy();
    await sut?.stop();
  });

  // The gateway and the reader stop first (400 ms for in-flight requests), then every service at once,
  // each within its own budget: the one process exits within 400 ms more than a single service may take.
  test('the one process hosting every app exits within 2.4 s, cleanly, while a client holds an idle keep-alive connection', async () => {
    // Ready once every service's consumers caught up.
    await eventually(async () => expect(await readyz(sut.baseUrl, agent)).toBe(200));
    expect(Object.values(agent.freeSockets).flat().length).toBe(1);
    const monolith = sut.apps.gateway;
    expect(new Set(Object.values(sut.apps))).toEqual(new Set([monolith]));
    // Each hosted app's lines name it.
    for (const name of Object.keys(sut.ports)) expect(monolith.output.some((l) => l.includes(`"service":"${name}"`))).toBe(true);
    const t0 = Date.now();
    await monolith.stop('SIGTERM');
    const stopped = { ms: Date.now() - t0, code: monolith.child.exitCode, signal: monolith.child.signalCode };
    expect({ ...stopped, ms: stopped.ms < MONOLITH_LIMIT_MS ? 'within the limit' : stopped.ms }).toEqual({ ms: 'within the limit', code: 0, signal: null });
  });
});
