import { Server } from '@grpc/grpc-js';
import { DomainError } from '@bindery/platform/errors';
import { DEADLINE_MARGIN_MS, incomingDeadline, outgoingDeadline, setBudgetClock, withCallBudget } from './call-budget';
import { startGrpcServer, stopGrpcServer } from './server';
import { grpcClient, grpcService } from './typed-service';
import { grpcStreamingClient, grpcStreamingService } from './streaming';

// Hand-made definitions: requests and replies are JSON.
const json = { serialize: (v: unknown) => Buffer.from(JSON.stringify(v)), deserialize: (b: Buffer) => JSON.parse(b.toString()) };
const unary = (path: string) => ({
  path,
  requestStream: false as const,
  responseStream: false as const,
  requestSerialize: json.serialize as (value: { label: string }) => Buffer,
  requestDeserialize: json.deserialize,
  responseSerialize: json.serialize,
  responseDeserialize: json.deserialize as (value: Buffer) => { seenDeadline: number; nested?: number },
  originalName: path,
});
const outerDef = { relay: unary('/test.Outer/Relay') };
const innerDef = { report: unary('/test.Inner/Report') };
const streamDef = { items: { ...unary('/test.Stream/Items'), responseStream: true as const } };

const LONG_DEFAULT_MS = 30_000;
const caller = { userId: 'u1', isInstanceAdmin: false };

describe('deadlines end to end', () => {
  const servers: Server[] = [];
  const started = { outer: 0, inner: 0, stream: 0 };
  let outer: ReturnType<typeof grpcClient<typeof outerDef>>;
  let streams: ReturnType<typeof grpcStreamingClient<typeof streamDef>>;

  async function serve(registration: { definition: never; implementation: never }): Promise<string> {
    const server = new Server();
    servers.push(server);
    server.addService(registration.definition, registration.implementation);
    return `127.0.0.1:${await startGrpcServer(server, 0, '127.0.0.1')}`;
  }

  beforeAll(async () => {
    const innerAddress = await serve(
      grpcService(innerDef, {
        async report() {
          started.inner += 1;
          return { seenDeadline: incomingDeadline() ?? Infinity };
        },
      }) as never,
    );
    // The nested client has a long default of its own, like change-requests' client of content.
    const inner = grpcClient(innerDef, innerAddress, LONG_DEFAULT_MS);
    const outerAddress = await serve(
      grpcService(outerDef, {
        async relay(_req, ctx) {
          started.outer += 1;
          const nested = await inner.report({ label: 'nested' }, { caller: ctx.caller });
          return { seenDeadline: incomingDeadline() ?? Infinity, nested: nested.seenDeadline };
        },
      }) as never,
    );
    outer = grpcClient(outerDef, outerAddress, LONG_DEFAULT_MS);
    const streamAddress = await serve(
      grpcStreamingService(streamDef, {
        async *items() {
          started.stream += 1;
          yield { seenDeadline: incomingDeadline() ?? Infinity };
        },
      }) as never,
    );
    streams = grpcStreamingClient(streamDef, streamAddress, LONG_DEFAULT_MS);
  });
  afterAll(async () => {
    outer.close();
    streams.close();
    await Promise.all(servers.map((s) => stopGrpcServer(s, 1000)));
  });

  test('a call made while serving another is bounded by what is left of its deadline, not by its own default', async () => {
    const deadline = Date.now() + 2000;
    const reply = await outer.relay({ label: 'x' }, { caller, deadline: new Date(deadline) });
    // grpc-js sends the deadline as a timeout, so the time in transit moves it a little (much, on a
    // loaded machine); the client's own 30 s default would be far outside this.
    expect(Math.abs(reply.seenDeadline - deadline)).toBeLessThan(1000);
    expect(reply.nested).toBeDefined();
    // the nested call's deadline arrives as a timeout too: it may land a little after the outer one
    expect(reply.nested!).toBeLessThan(reply.seenDeadline + 1000);
    expect(reply.nested!).toBeLessThan(Date.now() + 3000);
  });

  test('the deadline of a nested call is the incoming one less the margin, or its own default when that is sooner', () => {
    const incoming = Date.now() + 2000;
    withCallBudget(incoming, () => {
      expect(outgoingDeadline(undefined, LONG_DEFAULT_MS).getTime()).toBe(incoming - DEADLINE_MARGIN_MS);
      expect(outgoingDeadline(new Date(incoming + 60_000), LONG_DEFAULT_MS).getTime()).toBe(incoming - DEADLINE_MARGIN_MS);
      const sooner = new Date(Date.now() + 500);
      expect(outgoingDeadline(sooner, LONG_DEFAULT_MS)).toEqual(sooner);
    });
    // serving no call (a job, a consumer): the client's own default
    const before = Date.now();
    expect(outgoingDeadline(undefined, LONG_DEFAULT_MS).getTime()).toBeGreaterThanOrEqual(before + LONG_DEFAULT_MS);
  });

  test('a call arriving after its deadline passed is answered DEADLINE_EXCEEDED without being started', async () => {
    const before = { ...started };
    // The services' clock runs 10 s ahead: the 2 s the caller allowed are over when the call arrives.
    const restore = setBudgetClock(() => Date.now() + 10_000);
    try {
      await expect(outer.relay({ label: 'late' }, { caller, deadline: new Date(Date.now() + 2000) })).rejects.toMatchObject({ kind: 'unavailable' });
      const stream = streams.items({ label: 'late' }, { caller, deadline: new Date(Date.now() + 2000) });
      await expect(
        (async () => {
          for await (const item of stream) void item;
        })(),
      ).rejects.toBeInstanceOf(DomainError);
    } finally {
      restore();
    }
    expect(started).toEqual(before);
  });

  test('a streamed call sees its deadline as the budget of what it calls', async () => {
    const deadline = Date.now() + 1500;
    const seen: number[] = [];
    for await (const item of streams.items({ label: 'x' }, { caller, deadline: new Date(deadline) })) seen.push(item.seenDeadline);
    expect(seen).toHaveLength(1);
    expect(Math.abs(seen[0] - deadline)).toBeLessThan(1000);
  });
});
