import { Server } from '@grpc/grpc-js';
import { DEFAULT_MESSAGE_LIMITS, messageLimits, setMessageLimits } from './message-limits';
import { createGrpcServer, startGrpcServer, stopGrpcServer } from './server';
import { grpcClient, grpcService } from './typed-service';

// A hand-made definition: the request is the reply's size, the reply that many bytes.
const definition = {
  bytes: {
    path: '/test.Sizes/Bytes' as const,
    requestStream: false as const,
    responseStream: false as const,
    requestSerialize: (n: number) => Buffer.from(String(n)),
    requestDeserialize: (b: Buffer) => Number(b.toString()),
    responseSerialize: (v: Buffer) => v,
    responseDeserialize: (v: Buffer) => v,
    originalName: 'bytes',
  },
};

const MIB = 1024 * 1024;

/** A server and a client made while `limits` are in force, answering one reply of `size` bytes. */
async function roundTrip(limits: { maxSendBytes: number; maxReceiveBytes: number }, size: number): Promise<number> {
  const before = messageLimits();
  setMessageLimits(limits);
  const server: Server = createGrpcServer();
  const registration = grpcService(definition, { bytes: async (n: number) => Buffer.alloc(n, 1) }, { public: ['bytes'] });
  server.addService(registration.definition, registration.implementation);
  const address = `127.0.0.1:${await startGrpcServer(server, 0, '127.0.0.1')}`;
  const client = grpcClient(definition, address, 10_000);
  setMessageLimits(before);
  try {
    return (await client.bytes(size)).length;
  } finally {
    client.close();
    await stopGrpcServer(server, 1000);
  }
}

describe('gRPC message limits', () => {
  // Longer than the tier: builds, sends and parses 20 MB messages.
  test('the defaults carry a 20 MB answer (a 10,000-page revision read) that grpc’s own 4 MiB default refuses', async () => {
    expect(DEFAULT_MESSAGE_LIMITS.maxReceiveBytes).toBeGreaterThanOrEqual(3 * 20 * 1000 * 1000);
    expect(await roundTrip(DEFAULT_MESSAGE_LIMITS, 20 * 1000 * 1000)).toBe(20 * 1000 * 1000);
    await expect(roundTrip({ maxSendBytes: 4 * MIB, maxReceiveBytes: 4 * MIB }, 20 * 1000 * 1000)).rejects.toMatchObject({ kind: 'internal' });
  }, 30_000);

  test('servers and clients both take the chosen limits', async () => {
    // the server refuses to send what exceeds its send limit, whatever the client would accept
    await expect(roundTrip({ maxSendBytes: 4 * MIB, maxReceiveBytes: 64 * MIB }, 5 * MIB)).rejects.toBeDefined();
    expect(await roundTrip({ maxSendBytes: 8 * MIB, maxReceiveBytes: 8 * MIB }, 5 * MIB)).toBe(5 * MIB);
  });
});
