import { Server } from '@grpc/grpc-js';
import { DomainError } from '@bindery/platform/errors';
import { siteCaller, SITE_TOKEN_REFUSAL } from './call-context';
import { startGrpcServer, stopGrpcServer } from './server';
import { grpcClient, grpcService } from './typed-service';
import { grpcStreamingClient, grpcStreamingService } from './streaming';

// Hand-made definitions: requests and replies are JSON.
const json = { serialize: (v: unknown) => Buffer.from(JSON.stringify(v)), deserialize: (b: Buffer) => JSON.parse(b.toString()) };
const unary = (path: string) => ({
  path,
  requestStream: false as const,
  responseStream: false as const,
  requestSerialize: json.serialize as (value: object) => Buffer,
  requestDeserialize: json.deserialize,
  responseSerialize: json.serialize,
  responseDeserialize: json.deserialize as (value: Buffer) => { ran: string; site?: string },
  originalName: path,
});
const readsDef = { read: unary('/test.Reads/Read'), write: unary('/test.Reads/Write'), hello: unary('/test.Reads/Hello') };
const streamDef = {
  download: { ...unary('/test.Downloads/Download'), responseStream: true as const },
  export: { ...unary('/test.Downloads/Export'), responseStream: true as const },
};

const user = { userId: 'u1', isInstanceAdmin: false };
const site = siteCaller({ organizationId: 'org1', siteId: 'site1', spaceIds: ['sp1'], tokenId: 'tok1' });

describe('site callers at the server adapter', () => {
  const server = new Server();
  const ran: string[] = [];
  let reads: ReturnType<typeof grpcClient<typeof readsDef>>;
  let streams: ReturnType<typeof grpcStreamingClient<typeof streamDef>>;
  const original = process.env.BINDERY_INTERNAL_SECRET;

  beforeAll(async () => {
    process.env.BINDERY_INTERNAL_SECRET = 'k'.repeat(40);
    const handler = (name: string) => async (_req: object, ctx: { caller?: { site?: { siteId: string } } }) => {
      ran.push(name);
      return { ran: name, ...(ctx.caller?.site ? { site: ctx.caller.site.siteId } : {}) };
    };
    const reg = grpcService(readsDef, { read: handler('read'), write: handler('write'), hello: handler('hello') }, { public: ['hello'], siteReadable: ['read'] });
    server.addService(reg.definition, reg.implementation);
    const streaming = grpcStreamingService(
      streamDef,
      {
        async *download() {
          ran.push('download');
          yield { ran: 'download' };
        },
        async *export() {
          ran.push('export');
          yield { ran: 'export' };
        },
      },
      { siteReadable: ['download'] },
    );
    server.addService(streaming.definition, streaming.implementation);
    const address = `127.0.0.1:${await startGrpcServer(server, 0)}`;
    reads = grpcClient(readsDef, address, 5000);
    streams = grpcStreamingClient(streamDef, address, 5000);
  });

  afterAll(async () => {
    reads.close();
    streams.close();
    await stopGrpcServer(server, 100);
    if (original === undefined) delete process.env.BINDERY_INTERNAL_SECRET;
    else process.env.BINDERY_INTERNAL_SECRET = original;
  });

  beforeEach(() => {
    ran.length = 0;
  });

  const collect = async (stream: AsyncIterable<unknown>) => {
    const out: unknown[] = [];
    for await (const item of stream) out.push(item);
    return out;
  };

  it('runs a method open to site tokens, with the scope in the handler', async () => {
    await expect(reads.read({}, { caller: site })).resolves.toEqual({ ran: 'read', site: 'site1' });
    await expect(collect(streams.download({}, { caller: site }))).resolves.toEqual([{ ran: 'download' }]);
    expect(ran).toEqual(['read', 'download']);
  });

  it('refuses every other method to a site caller before its handler runs (public ones too)', async () => {
    for (const call of [() => reads.write({}, { caller: site }), () => reads.hello({}, { caller: site }), () => collect(streams.export({}, { caller: site }))]) {
      const err = await call().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(DomainError);
      expect(err).toMatchObject({ kind: 'forbidden', message: SITE_TOKEN_REFUSAL });
    }
    expect(ran).toEqual([]);
  });

  it('leaves users and anonymous callers as they were', async () => {
    await expect(reads.write({}, { caller: user })).resolves.toEqual({ ran: 'write' });
    await expect(reads.read({}, { caller: user })).resolves.toEqual({ ran: 'read' });
    await expect(reads.hello({})).resolves.toEqual({ ran: 'hello' });
    await expect(reads.read({})).rejects.toMatchObject({ kind: 'unauthenticated' });
    await expect(collect(streams.export({}, { caller: user }))).resolves.toEqual([{ ran: 'export' }]);
    await expect(collect(streams.export({}))).rejects.toMatchObject({ kind: 'unauthenticated' });
  });
});
