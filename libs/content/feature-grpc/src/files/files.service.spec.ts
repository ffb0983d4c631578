import { createHash, randomBytes } from 'node:crypto';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from '@grpc/grpc-js';
import { connectMongo, ensureIndexes, MongoHandle } from '@bindery/platform/mongo';
import { startGrpcServer, stopGrpcServer } from '@bindery/platform/grpc';
import { createSafeFetch, safeFetch, SafeFetch } from '@bindery/platform/outbound-http';
import { BLOB_BUCKET, BLOB_INDEXES, BlobTooLargeError, GridFsBlobStore } from '@bindery/content/data-access';
import { connectContentDownloads } from '@bindery/content/client';
import { infraEnv } from '@bindery/shared/testing';
import { fileDownloadsGrpc } from './downloads.service';
import { ingestFile, IngestOptions } from './file-ingest';
import { contentFiles } from './file-storage';
import { jpeg, png } from './image-samples';

const MB = 1024 * 1024;
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

async function* piecesOf(bytes: Buffer, size: number) {
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

async function readAll(stream: AsyncIterable<Buffer>): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const p of stream) parts.push(p);
  return Buffer.concat(parts);
}

/** A loopback HTTP server that serves `routes` and counts every request reaching it. */
async function fileServer(routes: Record<string, (res: http.ServerResponse) => void>) {
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    hits.push(req.url ?? '');
    const route = routes[req.url ?? ''];
    if (route) route(res);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { hits, origin, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe('files: GridFS blob store, ingestion and downloads (real MongoDB)', () => {
  let mongo: MongoHandle;
  let store: GridFsBlobStore;
  const spaceA = `space-a-${randomBytes(3).toString('hex')}`;
  const spaceB = `space-b-${randomBytes(3).toString('hex')}`;
  const chunkCount = () => mongo.db.collection(`${BLOB_BUCKET}.chunks`).countDocuments();
  const blobCount = () => mongo.db.collection(`${BLOB_BUCKET}.files`).countDocuments();

  beforeAll(async () => {
    mongo = await connectMongo(infraEnv().MONGODB_URL, `svc_files_${randomBytes(4).toString('hex')}`, 'tests');
    await ensureIndexes(mongo.db, BLOB_INDEXES);
    store = new GridFsBlobStore(mongo.db);
  });
  afterAll(async () => {
    await mongo?.db.dropDatabase();
    await mongo?.close();
  });

  test('a multi-MB blob streams in and out byte-identical, with its size, sha256 and 64 KiB head', async () => {
    const bytes = randomBytes(6 * MB + 12345);
    const stored = await store.put(spaceA, piecesOf(bytes, 100_001), { maxBytes: 10 * MB, filename: 'random.bin' });
    expect(stored).toMatchObject({ size: bytes.length, sha256: sha256(bytes) });
    expect(stored.head.equals(bytes.subarray(0, 64 * 1024))).toBe(true);
    const opened = await store.open(spaceA, stored.blobId);
    expect(opened.size).toBe(bytes.length);
    const back = await readAll(opened.stream);
    expect(back.equals(bytes)).toBe(true);
  });

  test('one byte over the limit is refused and leaves no chunk behind', async () => {
    const before = { chunks: await chunkCount(), blobs: await blobCount() };
    const bytes = randomBytes(2 * MB + 1);
    await expect(store.put(spaceA, piecesOf(bytes, 64 * 1024), { maxBytes: 2 * MB, filename: 'big.bin' })).rejects.toBeInstanceOf(BlobTooLargeError);
    expect({ chunks: await chunkCount(), blobs: await blobCount() }).toEqual(before);
    // exactly the limit is accepted
    const ok = await store.put(spaceA, piecesOf(bytes.subarray(0, 2 * MB), 64 * 1024), { maxBytes: 2 * MB, filename: 'exact.bin' });
    expect(ok.size).toBe(2 * MB);
  });

  test('a blob is invisible from another space; copy makes it the other space own; removeOfSpace removes only that space', async () => {
    const bytes = randomBytes(300_000);
    const { blobId } = await store.put(spaceA, piecesOf(bytes, 50_000), { maxBytes: MB, filename: 'a.bin' });
    await expect(store.open(spaceB, blobId)).rejects.toMatchObject({ kind: 'not_found' });
    await expect(store.open(spaceA, 'no-such-blob')).rejects.toMatchObject({ kind: 'not_found' });
    const copyId = await store.copy(spaceA, blobId, spaceB);
    expect((await readAll((await store.open(spaceB, copyId)).stream)).equals(bytes)).toBe(true);

    const chunksOfB = await mongo.db.collection(`${BLOB_BUCKET}.chunks`).countDocuments({ files_id: copyId });
    expect(chunksOfB).toBe(2);
    await store.removeOfSpace(spaceB);
    await expect(store.open(spaceB, copyId)).rejects.toMatchObject({ kind: 'not_found' });
    expect(await mongo.db.collection(`${BLOB_BUCKET}.chunks`).countDocuments({ files_id: copyId })).toBe(0);
    expect((await store.open(spaceA, blobId)).size).toBe(bytes.length);
  });

  describe('ingestFile', () => {
    const options = (over: Partial<IngestOptions> = {}): IngestOptions => ({ maxBytes: 4 * MB, fetchTimeoutMs: 10_000, allowPrivate: true, ...over });
    let server: Awaited<ReturnType<typeof fileServer>>;
    const image = png(20, 10);
    const bigJpeg = jpeg(1024, 768, 150_000);
    beforeAll(async () => {
      server = await fileServer({
        '/image.png': (res) => res.writeHead(200, { 'content-type': 'text/html' }).end(image),
        '/notes.txt': (res) => res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end('hello'),
        '/photo.jpg': (res) => res.writeHead(200).end(bigJpeg),
        '/declared-big': (res) => res.writeHead(200, { 'content-length': String(4 * MB + 1) }).end(),
        '/chunked-big': (res) => {
          res.writeHead(200);
          const piece = Buffer.alloc(256 * 1024, 1);
          let sent = 0;
          const more = () => {
            while (sent <= 4 * MB && res.write(piece)) sent += piece.length;
            if (sent <= 4 * MB) res.once('drain', more);
            else res.end();
          };
          more();
        },
        '/gone': (res) => res.writeHead(410).end('gone'),
      });
    });
    afterAll(() => server?.close());

    test('a url is fetched, streamed into the store and typed from its bytes (not from its headers)', async () => {
      const file = await ingestFile(store, spaceA, { name: 'image.png', url: `${server.origin}/image.png` }, options());
      expect(file).toMatchObject({ name: 'image.png', contentType: 'image/png', size: image.length, sha256: sha256(image), dimensions: { width: 20, height: 10 } });
      expect(file.id).toMatch(/^[A-Za-z0-9_-]{20}$/);
      expect((await readAll((await store.open(spaceA, file.blobId)).stream)).equals(image)).toBe(true);
      const text = await ingestFile(store, spaceA, { name: 'notes.txt', url: `${server.origin}/notes.txt` }, options());
      expect(text).toMatchObject({ contentType: 'text/plain', size: 5 });
      expect(text.dimensions).toBeUndefined();
    });

    test('an image whose first 64 KiB do not tell its size is measured from a longer prefix', async () => {
      const file = await ingestFile(store, spaceA, { name: 'photo.jpg', url: `${server.origin}/photo.jpg` }, options());
      expect(file).toMatchObject({ contentType: 'image/jpeg', dimensions: { width: 1024, height: 768 } });
    });

    test('a loopback url is refused by default, and no request reaches the server', async () => {
      const before = server.hits.length;
      await expect(ingestFile(store, spaceA, { name: 'image.png', url: `${server.origin}/image.png` }, options({ allowPrivate: false }))).rejects.toMatchObject({
        kind: 'invalid',
        message: expect.stringMatching(/url of file "image.png" was refused.*non-public/),
      });
      expect(server.hits.length).toBe(before);
    });

    test('a redirect from a public host to a private address is refused before connecting to it', async () => {
      const before = server.hits.length;
      // The first hop cannot be a real public server in a test: its sender and DNS are faked.
      const redirecting = createSafeFetch(async () => new Response(null, { status: 302, headers: { location: `${server.origin}/image.png` } }));
      const fetch: SafeFetch = (input, init) =>
        redirecting(input, { ...init, resolve: async (host) => (host === 'public.example' ? [{ address: '93.184.216.34', family: 4 }] : []) });
      const refusal = ingestFile(store, spaceA, { name: 'x.png', url: 'http://user:secret@public.example/x' }, options({ allowPrivate: false, fetch }));
      await expect(refusal).rejects.toMatchObject({
        kind: 'invalid',
        message: 'The url of file "x.png" was refused: host "127.0.0.1" is a loopback, private or otherwise non-public address.',
      });
      expect(server.hits.length).toBe(before);
    });

    test('over the limit is refused with its size, from Content-Length or while streaming, leaving nothing stored', async () => {
      const before = { chunks: await chunkCount(), blobs: await blobCount() };
      for (const path of ['/declared-big', '/chunked-big']) {
        await expect(ingestFile(store, spaceA, { name: 'big.bin', url: `${server.origin}${path}` }, options())).rejects.toMatchObject({
          kind: 'invalid',
          message: 'The file "big.bin" is larger than 4 MB.',
        });
      }
      expect({ chunks: await chunkCount(), blobs: await blobCount() }).toEqual(before);
    });

    test('a url answering an error status is refused naming the status; an unreachable one is refused', async () => {
      await expect(ingestFile(store, spaceA, { name: 'g', url: `${server.origin}/gone` }, options())).rejects.toMatchObject({
        kind: 'invalid',
        message: expect.stringContaining('HTTP 410'),
      });
      await expect(ingestFile(store, spaceA, { name: 'g', url: 'http://127.0.0.1:9/x' }, options())).rejects.toMatchObject({
        kind: 'invalid',
        message: expect.stringContaining('could not be fetched'),
      });
      await expect(ingestFile(store, spaceA, { name: 'g', url: 'ftp://example.com/x' }, options({ fetch: safeFetch }))).rejects.toMatchObject({
        kind: 'invalid',
        message: expect.stringContaining('http or https'),
      });
    });

    test('base64: decoded and sniffed; contentType required; invalid or over 1 MB refused', async () => {
      const file = await ingestFile(store, spaceA, { name: 'dot.png', base64: image.toString('base64'), contentType: 'application/octet-stream' }, options());
      expect(file).toMatchObject({ contentType: 'image/png', size: image.length, sha256: sha256(image), dimensions: { width: 20, height: 10 } });
      const csv = await ingestFile(store, spaceA, { name: 'a.csv', base64: Buffer.from('a,b\n').toString('base64'), contentType: 'text/csv' }, options());
      expect(csv.contentType).toBe('text/csv');
      await expect(ingestFile(store, spaceA, { name: 'x', base64: 'aGVsbG8=' } as never, options())).rejects.toMatchObject({
        kind: 'invalid',
        message: expect.stringContaining('contentType'),
      });
      await expect(ingestFile(store, spaceA, { name: 'x', base64: 'not base64!', contentType: 'text/plain' }, options())).rejects.toMatchObject({
        kind: 'invalid',
        message: expect.stringContaining('not valid base64'),
      });
      const tooBig = randomBytes(MB + 3).toString('base64');
      await expect(ingestFile(store, spaceA, { name: 'x', base64: tooBig, contentType: 'text/plain' }, options())).rejects.toMatchObject({
        kind: 'invalid',
        message: expect.stringContaining('1 MB'),
      });
    });
  });

  test('staged blobs: taken once while not expired, with their digest and head; the sweep removes the expired ones only', async () => {
    const space = `space-s-${randomBytes(3).toString('hex')}`;
    const now = Date.now();
    const bytes = randomBytes(600 * 1024);
    const fresh = await store.put(space, piecesOf(bytes, 100_000), { maxBytes: MB, filename: 'a.bin', stagedUntil: new Date(now + 60_000) });
    const expired = await store.put(space, piecesOf(randomBytes(1000), 1000), { maxBytes: MB, filename: 'b.bin', stagedUntil: new Date(now - 1) });
    const plain = await store.put(space, piecesOf(randomBytes(1000), 1000), { maxBytes: MB, filename: 'c.bin' });
    expect(await store.takeStaged(spaceB, [fresh.blobId], new Date(now))).toEqual(new Map());
    const taken = await store.takeStaged(space, [fresh.blobId, expired.blobId, plain.blobId, 'absent'], new Date(now));
    expect([...taken.keys()]).toEqual([fresh.blobId]);
    expect(taken.get(fresh.blobId)).toEqual({ blobId: fresh.blobId, size: bytes.length, sha256: sha256(bytes), head: bytes.subarray(0, 64 * 1024) });
    expect(await store.takeStaged(space, [fresh.blobId], new Date(now))).toEqual(new Map());

    const chunksBefore = await chunkCount();
    expect(await store.removeExpiredStaged(new Date(now))).toBe(1);
    expect(await chunkCount()).toBe(chunksBefore - 1);
    await expect(store.open(space, expired.blobId)).rejects.toMatchObject({ kind: 'not_found' });
    expect(sha256(await readAll((await store.open(space, fresh.blobId)).stream))).toBe(sha256(bytes));
    expect((await store.open(space, plain.blobId)).size).toBe(1000);
    // a taken blob is never swept, however late
    expect(await store.removeExpiredStaged(new Date(now + 10 * 86_400_000))).toBe(0);
  });

  describe('downloads over gRPC', () => {
    const server = new Server();
    let address: string;
    const files = () =>
      contentFiles(mongo.db, {
        CONTENT_FILE_MAX_BYTES: 8 * MB,
        CONTENT_STAGED_FILE_TTL_MS: 60_000,
        CONTENT_FILE_FETCH_TIMEOUT_MS: 10_000,
        CONTENT_DOWNLOAD_SECRET: 's'.repeat(40),
        CONTENT_DOWNLOAD_TTL_MS: 60_000,
        BINDERY_OUTBOUND_ALLOW_PRIVATE: undefined,
      });
    beforeAll(async () => {
      const registration = fileDownloadsGrpc(files());
      server.addService(registration.definition, registration.implementation);
      address = `127.0.0.1:${await startGrpcServer(server, 0, '127.0.0.1')}`;
    });
    afterAll(() => stopGrpcServer(server, 1000));

    test('a token streams the head then the bytes; a tampered token or one for a blob of another space is not found', async () => {
      const deps = files();
      const bytes = randomBytes(3 * MB + 7);
      const stored = await store.put(spaceA, piecesOf(bytes, 200_000), { maxBytes: 8 * MB, filename: 'r.bin' });
      const file = { id: 'f1', name: 'r é.bin', contentType: 'application/octet-stream', size: bytes.length, blobId: stored.blobId, sha256: stored.sha256 };
      const url = deps.downloadUrlOf(spaceA, file);
      expect(url).toMatch(/^downloads\/[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\/r%20%C3%A9\.bin$/);
      const token = url.split('/')[1]!;

      const client = connectContentDownloads(address, 10_000);
      try {
        const chunks: Buffer[] = [];
        let head;
        for await (const part of client.downloadFile({ token })) {
          if (part.head) head = part.head;
          if (part.data) {
            expect(part.data.length).toBeLessThanOrEqual(255 * 1024);
            chunks.push(part.data);
          }
        }
        expect(head).toEqual({ name: 'r é.bin', contentType: 'application/octet-stream', size: bytes.length });
        expect(sha256(Buffer.concat(chunks))).toBe(sha256(bytes));

        const otherSpace = deps.downloadUrlOf(spaceB, file).split('/')[1]!;
        for (const bad of [token.slice(0, -2) + (token.endsWith('AA') ? 'BB' : 'AA'), otherSpace, 'nonsense']) {
          await expect(readAll(client.downloadFile({ token: bad }) as AsyncIterable<never>)).rejects.toMatchObject({ kind: 'not_found', message: 'File not found.' });
        }

        // A reader that stops early cancels the call; the server stays healthy for the next one.
        for await (const part of client.downloadFile({ token })) if (part.data) break;
        let total = 0;
        for await (const part of client.downloadFile({ token })) total += part.data?.length ?? 0;
        expect(total).toBe(bytes.length);
      } finally {
        client.close();
      }
    });
  });
});
