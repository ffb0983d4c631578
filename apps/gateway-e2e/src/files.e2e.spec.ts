import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import * as nodeHttp from 'node:http';
import type { AddressInfo } from 'node:net';
import { grpcClient } from '@bindery/platform/grpc';
import { connectMongo } from '@bindery/platform/mongo';
import { contentRevisionsV1 } from '@bindery/shared/contracts';
import { assertErrorBody, eventually, startSystem, SystemUnderTest } from '@bindery/shared/testing';
import { createSpace } from './content-fixtures';
import { createOrganization, createUser, TestUser } from './fixtures';
import { http } from './http-client';
import { png } from './website-fixtures';

const MB = 1024 * 1024;
const BIG = 50 * MB;
const WARM_UP = 10 * MB;
const LIMIT = 100 * MB;
const TTL_MS = 6000;
/** One random megabyte, repeated: the loopback server streams BIG bytes without holding them. */
const BLOCK = randomBytes(MB);
/** A real 3×2 greyscale PNG, built here (no binary fixtures). */
const TINY_PNG = png(3, 2, 10);

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** Serves `size` bytes of BLOCK repeated, with backpressure, with or without a Content-Length. */
function serveRepeated(res: nodeHttp.ServerResponse, size: number, declareLength: boolean) {
  res.writeHead(200, { 'content-type': 'application/x-test', ...(declareLength ? { 'content-length': String(size) } : {}) });
  let sent = 0;
  const more = () => {
    while (sent < size) {
      const piece = BLOCK.subarray(0, Math.min(BLOCK.length, size - sent));
      sent += piece.length;
      if (!res.write(piece)) return void res.once('drain', more);
    }
    res.end();
  };
  res.on('error', () => undefined);
  more();
}

function repeatedSha256(size: number): string {
  const hash = createHash('sha256');
  for (let sent = 0; sent < size; sent += BLOCK.length) hash.update(BLOCK.subarray(0, Math.min(BLOCK.length, size - sent)));
  return hash.digest('hex');
}

/** Peak resident memory of a process so far (kB), from /proc. */
function peakRssKb(pid: number): number {
  const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!match) throw new Error('no VmHWM');
  return Number(match[1]);
}

/** Downloads a URL, streaming it through a hash; answers status, headers, size and sha256. */
async function download(url: string) {
  const res = await fetch(url);
  if (res.status !== 200) return { status: res.status, headers: res.headers, body: await res.json().catch(() => undefined), size: 0, sha256: '' };
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    hash.update(chunk);
    size += chunk.length;
  }
  return { status: 200, headers: res.headers, body: undefined, size, sha256: hash.digest('hex') };
}

describe('files: upload by url and base64, signed streamed downloads (real system)', () => {
  let sut: SystemUnderTest;
  let owner: TestUser;
  let spaceA: string;
  let spaceB: string;
  let files: nodeHttp.Server;
  let origin: string;
  let revisions: ReturnType<typeof grpcClient<typeof contentRevisionsV1.RevisionsServiceService>>;
  const api = () => http(sut.baseUrl, owner.token);

  const insertFiles = async (spaceId: string, items: unknown[]) => {
    const reply = await revisions.applyChanges(
      {
        spaceId,
        baseRevisionId: '',
        changesJson: JSON.stringify([{ operation: 'insert_files', files: items }]),
        updateCurrent: true,
        revisionType: '',
        mergedFrom: '',
        revertRevisionId: '',
      },
      { caller: { userId: owner.id, isInstanceAdmin: false }, deadline: new Date(Date.now() + 120_000) },
    );
    return reply.insertedFiles;
  };
  const fileOf = async (spaceId: string, fileId: string) => {
    const res = await api().get(`/v1/spaces/${spaceId}/content/files/${fileId}`);
    if (res.status !== 200) throw new Error(`GET file: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as { id: string; name: string; contentType: string; size: number; downloadURL: string; dimensions?: { width: number; height: number } };
  };

  // Longer than the tier: starts its own system (outbound guard open, download settings of its own).
  beforeAll(async () => {
    files = nodeHttp.createServer((req, res) => {
      if (req.url === '/big.bin') serveRepeated(res, BIG, true);
      else if (req.url === '/warm-up.bin') serveRepeated(res, WARM_UP, true);
      else if (req.url === '/too-big-declared') serveRepeated(res, LIMIT + 1, true);
      else if (req.url === '/too-big-streamed') serveRepeated(res, LIMIT + 1, false);
      else res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;

    sut = await startSystem(
      { BINDERY_OUTBOUND_ALLOW_PRIVATE: 'true', CONTENT_DOWNLOAD_TTL_MS: String(TTL_MS), CONTENT_DOWNLOAD_SECRET: randomBytes(24).toString('hex') },
      { services: ['identity', 'content'], split: true },
    );
    // The test calls content's gRPC itself, as a signed caller, like the gateway does.
    process.env.BINDERY_INTERNAL_SECRET = sut.env.BINDERY_INTERNAL_SECRET;
    revisions = grpcClient(contentRevisionsV1.RevisionsServiceService, `127.0.0.1:${sut.ports.content}`, 120_000);
    owner = await createUser(sut, 'files-owner');
    const orgId = await createOrganization(sut, owner, 'Files');
    spaceA = (await createSpace(api(), orgId, { title: 'A' })).id;
    spaceB = (await createSpace(api(), orgId, { title: 'B' })).id;
  }, 180_000);
  afterAll(async () => {
    revisions?.close();
    await sut?.stop();
    await new Promise((resolve) => files?.close(resolve));
  });

  // Longer than the tier: uploads and downloads 50 MB.
  test('a small base64 file and a 50 MB url file download byte-identical, streamed (content peak RSS grows far less than the file)', async () => {
    const [small] = await insertFiles(spaceA, [{ name: 'dot.png', base64: TINY_PNG.toString('base64'), contentType: 'application/octet-stream' }]);
    const smallFile = await fileOf(spaceA, small!.id);
    expect(smallFile).toMatchObject({ name: 'dot.png', contentType: 'image/png', size: TINY_PNG.length, dimensions: { width: 3, height: 2 } });
    expect(smallFile.downloadURL.startsWith(`${sut.baseUrl}/downloads/`)).toBe(true);
    const smallDownload = await download(smallFile.downloadURL);
    expect(smallDownload).toMatchObject({ status: 200, size: TINY_PNG.length, sha256: sha256(TINY_PNG) });
    expect(smallDownload.headers.get('content-type')).toBe('image/png');
    expect(smallDownload.headers.get('content-disposition')).toBe(`inline; filename="dot.png"; filename*=UTF-8''dot.png`);
    expect(smallDownload.headers.get('x-content-type-options')).toBe('nosniff');
    const maxAge = Number(/^private, max-age=(\d+)$/.exec(smallDownload.headers.get('cache-control') ?? '')?.[1]);
    expect(maxAge).toBeGreaterThan(0);
    expect(maxAge).toBeLessThanOrEqual(Math.ceil((TTL_MS * 1.1) / 1000));

    // A transfer makes garbage at the rate bytes arrive, and V8's young generation grows with that rate
    // (to ~40 MB), whatever the file's size. A 10 MB transfer first takes the process to that plateau;
    // a service that held the file would then still grow by the 50 MB file, a streaming one does not.
    const pid = sut.apps.content.child.pid!;
    const [warm] = await insertFiles(spaceA, [{ name: 'warm-up.bin', url: `${origin}/warm-up.bin` }]);
    expect(await download((await fileOf(spaceA, warm!.id)).downloadURL)).toMatchObject({ status: 200, size: WARM_UP });
    const before = peakRssKb(pid);
    const [big] = await insertFiles(spaceA, [{ name: 'big data.bin', url: `${origin}/big.bin` }]);
    const bigFile = await fileOf(spaceA, big!.id);
    const uploadGrowthKb = peakRssKb(pid) - before;
    expect(bigFile).toMatchObject({ contentType: 'application/octet-stream', size: BIG });
    const bigDownload = await download(bigFile.downloadURL);
    expect(bigDownload).toMatchObject({ status: 200, size: BIG, sha256: repeatedSha256(BIG) });
    expect(bigDownload.headers.get('content-length')).toBe(String(BIG));
    expect(bigDownload.headers.get('content-disposition')).toBe(`attachment; filename="big data.bin"; filename*=UTF-8''big%20data.bin`);
    const growthKb = peakRssKb(pid) - before;
    console.log(`content peak RSS: ${before} kB after a ${WARM_UP / MB} MB warm-up; +${uploadGrowthKb} kB after storing, +${growthKb} kB after also serving a ${BIG / MB} MB file`);
    expect(growthKb * 1024).toBeLessThan(0.4 * BIG);
  }, 180_000);

  test('a download URL stops working once expired, with the same 404 as a tampered or misplaced token', async () => {
    const [item] = await insertFiles(spaceA, [{ name: 'notes.txt', base64: Buffer.from('hello').toString('base64'), contentType: 'text/plain' }]);
    const [other] = await insertFiles(spaceB, [{ name: 'other.txt', base64: Buffer.from('other').toString('base64'), contentType: 'text/plain' }]);
    const url = (await fileOf(spaceA, item!.id)).downloadURL;
    const otherUrl = (await fileOf(spaceB, other!.id)).downloadURL;
    expect(await download(url)).toMatchObject({ status: 200, size: 5 });

    const [, token, name] = new URL(url).pathname.split('/').slice(1);
    const [payload, signature] = token!.split('.');
    const fields = JSON.parse(Buffer.from(payload!, 'base64url').toString()) as unknown[];
    const forged = (change: (f: unknown[]) => unknown[]) => `${Buffer.from(JSON.stringify(change([...fields]))).toString('base64url')}.${signature}`;
    const otherToken = new URL(otherUrl).pathname.split('/')[2]!;
    const otherFields = JSON.parse(Buffer.from(otherToken.split('.')[0]!, 'base64url').toString()) as unknown[];
    const refused = [
      `${sut.baseUrl}/downloads/${token}/other.txt`, // A's token on B's file name
      `${sut.baseUrl}/downloads/${forged((f) => [f[0], spaceB, ...f.slice(2)])}/${name}`, // A's signature, B's space
      `${sut.baseUrl}/downloads/${forged((f) => [f[0], otherFields[1], otherFields[2], ...f.slice(3)])}/${name}`, // A's signature, B's blob
      `${sut.baseUrl}/downloads/${otherToken.split('.')[0]}.${signature}/other.txt`, // B's payload, A's signature
      // one character of the signature changed: the first (the last one also carries padding bits, which decode alike)
      `${sut.baseUrl}/downloads/${payload}.${signature!.startsWith('A') ? 'B' : 'A'}${signature!.slice(1)}/${name}`,
    ];
    const messages = new Set<string>();
    for (const bad of refused) {
      const res = await download(bad);
      expect(res.status).toBe(404);
      assertErrorBody(404, res.body);
      messages.add((res.body as { error: { message: string } }).error.message);
    }

    // A download link expires with time: ask until its lifetime has passed.
    const expired = await eventually(
      async () => {
        const res = await download(url);
        if (res.status !== 404) throw new Error(`still ${res.status}`);
        return res;
      },
      TTL_MS * 2,
      200,
    );
    assertErrorBody(404, expired.body);
    messages.add((expired.body as { error: { message: string } }).error.message);
    expect([...messages]).toEqual(['File not found.']);
    // A fresh read of the file gives a fresh URL that works.
    expect(await download((await fileOf(spaceA, item!.id)).downloadURL)).toMatchObject({ status: 200, size: 5 });
  });

  // Longer than the tier: streams 100 MB before the refusal.
  test('100 MB + 1 byte is refused with 400 (declared or streamed), the revision unchanged and nothing left stored', async () => {
    const mongo = await connectMongo(sut.env.MONGODB_URL, sut.env.CONTENT_DB, 'tests');
    try {
      const blobs = () => mongo.db.collection('blobs.files').countDocuments();
      const chunks = () => mongo.db.collection('blobs.chunks').countDocuments();
      const before = { revision: (await api().get(`/v1/spaces/${spaceA}`)).body.revision, blobs: await blobs(), chunks: await chunks() };
      for (const path of ['/too-big-declared', '/too-big-streamed']) {
        await expect(insertFiles(spaceA, [{ name: 'huge.bin', url: `${origin}${path}` }])).rejects.toMatchObject({
          kind: 'invalid',
          message: 'The file "huge.bin" is larger than 100 MB.',
        });
      }
      expect({ revision: (await api().get(`/v1/spaces/${spaceA}`)).body.revision, blobs: await blobs(), chunks: await chunks() }).toEqual(before);
    } finally {
      await mongo.close();
    }
  }, 180_000);

  test('download tokens never reach the logs', () => {
    const logs = [...sut.apps.gateway.output, ...sut.apps.content.output].join('\n');
    expect(logs).not.toMatch(/\/downloads\/[A-Za-z0-9_-]{20,}\.[A-Za-z0-9_-]{43}/);
  });
});
