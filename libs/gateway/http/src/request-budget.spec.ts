import { AddressInfo } from 'node:net';
import { Server } from 'node:http';
import { incomingDeadline } from '@bindery/platform/grpc';
import { createGatewayApp } from './gateway-app';
import { RouteRegistry } from './route-registry';

/** The request's budget is the root of every deadline below it, and the Idempotency-Key reaches the handler. */
describe('gateway app: request budget and Idempotency-Key', () => {
  let server: Server;
  let base: string;

  beforeAll(async () => {
    // Each handler answers the budget its calls would be bounded by, and the key it was given.
    const report = async ({ deadline, idempotencyKey }: { deadline: Date; idempotencyKey?: string }) => ({
      body: { deadline: deadline.getTime(), bound: incomingDeadline() ?? null, key: idempotencyKey ?? null },
    });
    const route = { method: 'post' as const, tags: [], bodyOptional: true, success: { status: 200, description: 'ok' }, handler: report };
    const registry = new RouteRegistry().add(
      { ...route, path: '/plain', operationId: 'plain', summary: 'default budget' },
      { ...route, path: '/long', operationId: 'long', summary: 'own budget', budgetMs: 60_000 },
      { ...route, path: '/create', operationId: 'create', summary: 'takes a key', idempotent: true },
    );
    const app = createGatewayApp({
      registry,
      authenticate: async () => ({ userId: 'u1', isInstanceAdmin: false }),
      readiness: {},
      publicUrl: 'http://127.0.0.1',
      requestBudgetMs: 1000,
      bodyLimit: '1kb',
    });
    server = await new Promise<Server>((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const post = async (path: string, headers: Record<string, string> = {}) => {
    const res = await fetch(base + path, { method: 'POST', headers: { authorization: 'Bearer t', ...headers } });
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    return { status: res.status, body: (await res.json()) as any };
  };

  it('runs the handler inside the request budget, so calls that pass no deadline are bounded by it', async () => {
    const t0 = Date.now();
    const plain = await post('/plain');
    expect(plain.status).toBe(200);
    expect(plain.body.bound).toBe(plain.body.deadline);
    expect(plain.body.deadline).toBeLessThanOrEqual(Date.now() + 1000);
    const long = await post('/long');
    expect(long.body.bound).toBe(long.body.deadline);
    expect(long.body.deadline).toBeGreaterThanOrEqual(t0 + 60_000);
  });

  it('passes a well-formed Idempotency-Key to routes that take one, refuses a malformed one, ignores it elsewhere', async () => {
    expect((await post('/create', { 'idempotency-key': 'a1b2-c3' })).body.key).toBe('a1b2-c3');
    expect((await post('/create')).body.key).toBeNull();
    const bad = await post('/create', { 'idempotency-key': 'has space' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/Idempotency-Key/);
    expect((await post('/plain', { 'idempotency-key': 'a1b2-c3' })).body.key).toBeNull();
  });
});
