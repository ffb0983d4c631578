import { Server } from '@grpc/grpc-js';
import { DomainError } from '@bindery/platform/errors';
import { startGrpcServer, stopGrpcServer } from './server';
import { grpcStreamingClient, grpcStreamingService } from './streaming';

// A service definition by hand: requests are UTF-8 strings, replies raw bytes.
const definition = {
  chunks: {
    path: '/test.Streams/Chunks' as const,
    requestStream: false as const,
    responseStream: true as const,
    requestSerialize: (value: string) => Buffer.from(value),
    requestDeserialize: (value: Buffer) => value.toString(),
    responseSerialize: (value: Buffer) => value,
    responseDeserialize: (value: Buffer) => value,
    originalName: 'chunks',
  },
};

const CHUNK = 256 * 1024;

describe('server-streaming handlers', () => {
  const server = new Server();
  let address: string;
  let markClosed!: () => void;
  const sourceClosed = new Promise<void>((resolve) => (markClosed = resolve));
  const state = { produced: 0, closed: false, sawCaller: undefined as string | undefined };

  beforeAll(async () => {
    const registration = grpcStreamingService(
      definition,
      {
        async *chunks(req, ctx) {
          state.sawCaller = ctx.caller?.userId;
          if (req === 'missing') throw new DomainError('not_found', 'Nothing here.');
          if (req === 'bug') throw new Error('secret internals');
          try {
            // endless unless the reader stops: only backpressure bounds it
            for (;;) {
              state.produced += 1;
              yield Buffer.alloc(CHUNK, state.produced % 256);
            }
          } finally {
            state.closed = true;
            markClosed();
          }
        },
      },
      { public: ['chunks'] },
    );
    server.addService(registration.definition, registration.implementation);
    address = `127.0.0.1:${await startGrpcServer(server, 0, '127.0.0.1')}`;
  });
  afterAll(() => stopGrpcServer(server, 1000));

  test('a slow reader holds the producer back, and stopping closes the source', async () => {
    const client = grpcStreamingClient(definition, address, 10_000);
    const caller = { userId: 'u1', isInstanceAdmin: false };
    const firstOf = async (req: string) => {
      for await (const _ of client.chunks(req, { caller })) return _;
    };
    try {
      let read = 0;
      for await (const chunk of client.chunks('go', { caller })) {
        expect(chunk.length).toBe(CHUNK);
        read += 1;
        if (read === 3) {
          // The producer has stopped once a whole call through the same server left it where it was
          // (the server turned its event loop: any drain it had would have resumed the producer).
          let before: number;
          do {
            before = state.produced;
            await expect(firstOf('missing')).rejects.toMatchObject({ kind: 'not_found' });
          } while (state.produced !== before && state.produced < 3 + 64);
          // Flow-control windows and stream buffers hold a few MB at most, never the endless rest.
          expect(state.produced).toBeLessThan(3 + 64);
        }
        if (read === 5) break;
      }
      expect(state.sawCaller).toBe('u1');
      await sourceClosed;
      expect(state.closed).toBe(true);
    } finally {
      client.close();
    }
  });

  test('a DomainError becomes its status; anything else is INTERNAL without details', async () => {
    const client = grpcStreamingClient(definition, address, 10_000);
    const drain = async (req: string) => {
      for await (const _ of client.chunks(req)) void _;
    };
    try {
      await expect(drain('missing')).rejects.toMatchObject({ kind: 'not_found', message: 'Nothing here.' });
      await expect(drain('bug')).rejects.toMatchObject({ kind: 'internal', message: 'Internal error.' });
    } finally {
      client.close();
    }
  });

  test('a method that is not public refuses a call without a caller before its handler runs', async () => {
    const guarded = grpcStreamingService(definition, {
      async *chunks() {
        yield Buffer.from('never');
      },
    });
    const other = new Server();
    other.addService(guarded.definition, guarded.implementation);
    const port = await startGrpcServer(other, 0, '127.0.0.1');
    const client = grpcStreamingClient(definition, `127.0.0.1:${port}`, 10_000);
    try {
      const replies: Buffer[] = [];
      await expect(
        (async () => {
          for await (const r of client.chunks('x')) replies.push(r);
        })(),
      ).rejects.toMatchObject({ kind: 'unauthenticated' });
      expect(replies).toEqual([]);
    } finally {
      client.close();
      await stopGrpcServer(other, 1000);
    }
  });
});
