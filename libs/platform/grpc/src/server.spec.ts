import { Client, credentials, Server, ServiceError, status } from '@grpc/grpc-js';
import { connect } from 'node:net';
import { networkInterfaces } from 'node:os';
import { startGrpcServer, stopGrpcServer } from './server';

// A unary method by hand: the request is how long (ms) the handler takes, or "never".
const definition = {
  work: {
    path: '/test.Work/Work',
    requestStream: false,
    responseStream: false,
    requestSerialize: (value: string) => Buffer.from(value),
    requestDeserialize: (value: Buffer) => value.toString(),
    responseSerialize: (value: string) => Buffer.from(value),
    responseDeserialize: (value: Buffer) => value.toString(),
  },
};

async function serve(): Promise<{ server: Server; client: Client; started: Promise<void> }> {
  let markStarted!: () => void;
  const started = new Promise<void>((resolve) => (markStarted = resolve));
  const server = new Server();
  server.addService(definition, {
    work: (call: { request: string }, callback: (err: null, reply: string) => void) => {
      markStarted();
      if (call.request !== 'never') setTimeout(() => callback(null, `done after ${call.request} ms`), Number(call.request));
    },
  });
  const port = await startGrpcServer(server, 0);
  return { server, client: new Client(`127.0.0.1:${port}`, credentials.createInsecure()), started };
}

function call(client: Client, request: string): Promise<{ reply?: string; code?: number }> {
  return new Promise((resolve) =>
    client.makeUnaryRequest(
      definition.work.path,
      definition.work.requestSerialize,
      definition.work.responseDeserialize,
      request,
      { deadline: Date.now() + 10000 },
      (err: ServiceError | null, reply?: string) => resolve(err ? { code: err.code } : { reply }),
    ),
  );
}

describe('stopping a gRPC server', () => {
  test('a call under way when the stop begins finishes, and the stop waits for it, no longer', async () => {
    const { server, client, started } = await serve();
    const inFlight = call(client, '300');
    await started;
    const t0 = Date.now();
    await stopGrpcServer(server, 2000);
    const stoppedAfter = Date.now() - t0;
    expect(await inFlight).toEqual({ reply: 'done after 300 ms' });
    expect(stoppedAfter).toBeGreaterThanOrEqual(200);
    expect(stoppedAfter).toBeLessThan(1500);
    client.close();
  });

  test('a call that outlives the grace is cancelled when it runs out, and the stop returns then', async () => {
    const { server, client, started } = await serve();
    const stuck = call(client, 'never');
    await started;
    const t0 = Date.now();
    await stopGrpcServer(server, 400);
    const stoppedAfter = Date.now() - t0;
    expect(stoppedAfter).toBeGreaterThanOrEqual(390);
    expect(stoppedAfter).toBeLessThan(1000);
    expect([status.CANCELLED, status.UNAVAILABLE]).toContain((await stuck).code);
    client.close();
  });

  test('listens on loopback unless told otherwise: another address of this machine is refused', async () => {
    const server = new Server();
    server.addService(definition, { work: () => undefined });
    const port = await startGrpcServer(server, 0);
    const external = Object.values(networkInterfaces())
      .flat()
      .find((i) => i && i.family === 'IPv4' && !i.internal)?.address;
    try {
      expect(await connects('127.0.0.1', port)).toBe(true);
      // a machine with no other interface has nothing else to refuse
      if (external) expect(await connects(external, port)).toBe(false);
    } finally {
      await stopGrpcServer(server, 100);
    }
  });
});

function connects(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
