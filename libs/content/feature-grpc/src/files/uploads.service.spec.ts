import { contentRevisionsV1 } from '@bindery/shared/contracts';
import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '@bindery/platform/mongo';
import { connectContent, connectContentDownloads, connectContentUploads, downloadTokenOf, officialFile, officialPage } from '@bindery/content/client';
import { BLOB_BUCKET } from '@bindery/content/data-access';
import { IdentityEvents as I } from '@bindery/identity/client';
import { identityStandIn } from '@bindery/identity/projection';
import { ServiceUnderTest, startServiceUnderTest } from '@bindery/shared/testing';
import type { ContentDeps } from '../content-deps';
import { contentServiceWith } from '../content-server';

const MB = 1024 * 1024;
const MAX = 3 * MB;
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const admin = { userId: `admin-${randomBytes(3).toString('hex')}`, isInstanceAdmin: false };
const reader = { userId: `reader-${randomBytes(3).toString('hex')}`, isInstanceAdmin: false };
const stranger = { userId: `stranger-${randomBytes(3).toString('hex')}`, isInstanceAdmin: false };
const org = `org-${randomBytes(3).toString('hex')}`;

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** A head, then the bytes in pieces of `piece` bytes; counts how many pieces were asked for. */
function chunks(spaceId: string, name: string, bytes: Buffer, piece = 64 * 1024) {
  const sent = { pieces: 0 };
  async function* source() {
    yield { head: { spaceId, name } };
    for (let at = 0; at < bytes.length; at += piece) {
      sent.pieces += 1;
      yield { data: bytes.subarray(at, at + piece) };
    }
  }
  return { source: source(), sent };
}

describe('FileUploadsService.StageFile and ImportTree with staged files (in process, real MongoDB)', () => {
  let service: ServiceUnderTest<ContentDeps>;
  let clients: ReturnType<typeof connectContent>;
  let uploads: ReturnType<typeof connectContentUploads>;
  let downloads: ReturnType<typeof connectContentDownloads>;
  let db: Db;

  beforeAll(async () => {
    service = await startServiceUnderTest(contentServiceWith(Date.now, identityStandIn), { CONTENT_PURGE_EVERY_MS: '86400000', CONTENT_FILE_MAX_BYTES: String(MAX) });
    clients = connectContent(service.address, 20000);
    uploads = connectContentUploads(service.address, 20000);
    downloads = connectContentDownloads(service.address, 20000);
    const deps = service.running.deps;
    db = (deps.revisions as unknown as { db: Db }).db;
    await deps.access.handlers[I.memberAdded.type](I.memberAdded.create('tests', admin.userId, { organizationId: org, userId: admin.userId, role: 'admin' }, org));
    await deps.access.handlers[I.memberAdded.type](I.memberAdded.create('tests', reader.userId, { organizationId: org, userId: reader.userId, role: 'read' }, org));
  });
  afterAll(async () => {
    clients?.close();
    uploads?.close();
    downloads?.close();
    await service?.stop();
  });

  const newSpace = async () => (await clients.spaces.createSpace({ organizationId: org, title: 'Files' }, { caller: admin })).id;
  const blobsOf = (spaceId: string) => db.collection(`${BLOB_BUCKET}.files`).find({ 'metadata.spaceId': spaceId }).toArray();
  const chunkCount = () => db.collection(`${BLOB_BUCKET}.chunks`).countDocuments();
  const importTree = async (spaceId: string, files: Json[], markdown = '# Home\n\n![shot](.gitbook/assets/shot.gif)\n') => {
    const r = await clients.revisions.importTree(
      {
        spaceId,
        tree: [contentRevisionsV1.ImportTreeEntry.fromPartial({ source: 'README.md', markdown })],
        files: files.map((f) => ({ paths: f.paths ?? ['.gitbook/assets/shot.gif'], name: f.name ?? 'shot.gif', contentType: '', data: Buffer.alloc(0), stagedId: f.stagedId })),
        updateCurrent: true,
        revisionKey: '',
        git: undefined,
        reusableContents: undefined,
      },
      { caller: admin },
    );
    return { ...r, skipped: r.skippedFiles };
  };
  const download = async (spaceId: string, fileId: string) => {
    const file = officialFile((await clients.revisions.getFile({ revision: { spaceId, revisionId: '', metadata: false }, fileId }, { caller: admin })).file!) as Json;
    const parts: Buffer[] = [];
    for await (const part of downloads.downloadFile({ token: downloadTokenOf(file.downloadURL)! })) if (part.data) parts.push(part.data);
    return { file, bytes: Buffer.concat(parts) };
  };

  test('a file over 1 MB in chunks: staged (size, sha256), taken by ImportTree, downloaded byte-identical', async () => {
    const spaceId = await newSpace();
    const bytes = Buffer.concat([Buffer.from('GIF89a'), randomBytes(2 * MB + 12345)]);
    const { source, sent } = chunks(spaceId, 'shot.gif', bytes);
    const staged = await uploads.stageFile(source, { caller: admin });
    expect(sent.pieces).toBe(Math.ceil(bytes.length / (64 * 1024)));
    expect(staged).toEqual({ stagedId: expect.any(String), size: bytes.length, sha256: sha256(bytes) });
    expect((await blobsOf(spaceId)).map((b) => [b._id, b.length, !!b.metadata.stagedUntil])).toEqual([[staged.stagedId, bytes.length, true]]);

    const r = await importTree(spaceId, [{ stagedId: staged.stagedId }]);
    expect(r.skipped).toEqual([]);
    const fileId = r.files['.gitbook/assets/shot.gif']!;
    const { file, bytes: back } = await download(spaceId, fileId);
    expect(file).toMatchObject({ name: 'shot.gif', contentType: 'image/gif', size: bytes.length });
    expect(sha256(back)).toBe(sha256(bytes));
    // taken: no longer staged (the sweep leaves it alone)
    expect((await blobsOf(spaceId)).map((b) => [b._id, !!b.metadata.stagedUntil])).toEqual([[staged.stagedId, false]]);
    expect(await service.running.deps.files.sweepStaged()).toBe(0);

    // the same staged id again is gone: that file is skipped with its reason, the import completes
    const again = await importTree(
      spaceId,
      [{ stagedId: staged.stagedId, paths: ['.gitbook/assets/other.gif'], name: 'other.gif' }],
      '# Home\n\n![again](.gitbook/assets/other.gif)\n',
    );
    expect(again.skipped).toEqual([{ name: 'other.gif', paths: ['.gitbook/assets/other.gif'], reason: expect.stringContaining('staged bytes are gone') }]);
    expect(again.files).toEqual({});
    const pages = (await clients.revisions.listPages({ spaceId, revisionId: '', metadata: false }, { caller: admin })).pages.map(officialPage) as Json[];
    const md = officialPage(
      (
        await clients.revisions.getPage(
          { revision: { spaceId, revisionId: '', metadata: false }, pageId: pages[0]!.id, path: '', format: 'markdown', evaluated: false },
          { caller: admin },
        )
      ).page!,
    ) as Json;
    expect(md.markdown).toContain('.gitbook/assets/other.gif');
  });

  test('over CONTENT_FILE_MAX_BYTES: refused with the limit, stopped early, nothing stored', async () => {
    const spaceId = await newSpace();
    const chunksBefore = await chunkCount();
    const bytes = randomBytes(MAX + 1);
    const { source, sent } = chunks(spaceId, 'huge.bin', Buffer.concat([bytes, randomBytes(4 * MB)]));
    await expect(uploads.stageFile(source, { caller: admin })).rejects.toMatchObject({ kind: 'invalid', message: 'The file "huge.bin" is larger than 3 MB.' });
    // the sender was told to stop instead of sending the remaining 4 MB
    expect(sent.pieces).toBeLessThan(Math.ceil((MAX + 1 + 4 * MB) / (64 * 1024)));
    expect(await blobsOf(spaceId)).toEqual([]);
    expect(await chunkCount()).toBe(chunksBefore);
    // exactly the limit passes
    const { source: fits } = chunks(spaceId, 'fits.bin', randomBytes(MAX));
    expect((await uploads.stageFile(fits, { caller: admin })).size).toBe(MAX);
  });

  test('a sender that fails part way cancels the call: the partial blob is removed', async () => {
    const spaceId = await newSpace();
    const chunksBefore = await chunkCount();
    let sent = 0;
    async function* failing() {
      yield { head: { spaceId, name: 'cut.bin' } };
      for (; sent < 12; sent += 1) yield { data: randomBytes(255 * 1024) };
      // fail only once part of the file is in storage
      for (const until = Date.now() + 10_000; (await chunkCount()) < chunksBefore + 2;) {
        if (Date.now() > until) throw new Error('nothing was stored');
        await new Promise((resolve) => setImmediate(resolve));
      }
      throw new Error('git failed (git cat-file)');
    }
    await expect(uploads.stageFile(failing(), { caller: admin })).rejects.toThrow('git failed (git cat-file)');
    expect(sent).toBe(12);
    // the server learns of the cancel on its own time: wait until its cleanup shows
    for (const until = Date.now() + 10_000; (await blobsOf(spaceId)).length || (await chunkCount()) !== chunksBefore;) {
      if (Date.now() > until) throw new Error('the partial blob was not removed');
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(await blobsOf(spaceId)).toEqual([]);
  });

  test('editors only, as ImportTree: readers forbidden, strangers not found, anonymous unauthenticated; nothing stored', async () => {
    const spaceId = await newSpace();
    const bytes = randomBytes(300 * 1024);
    await expect(uploads.stageFile(chunks(spaceId, 'a.bin', bytes).source, { caller: reader })).rejects.toMatchObject({ kind: 'forbidden' });
    await expect(uploads.stageFile(chunks(spaceId, 'a.bin', bytes).source, { caller: stranger })).rejects.toMatchObject({ kind: 'not_found' });
    await expect(uploads.stageFile(chunks(spaceId, 'a.bin', bytes).source)).rejects.toMatchObject({ kind: 'unauthenticated' });
    // a data message first, or no message at all
    async function* headless() {
      yield { data: bytes };
    }
    await expect(uploads.stageFile(headless(), { caller: admin })).rejects.toMatchObject({ kind: 'invalid' });
    expect(await blobsOf(spaceId)).toEqual([]);
  });

  test('staged bytes the space already holds are reused and the staged blob removed; a failed import removes what it took', async () => {
    const spaceId = await newSpace();
    const bytes = randomBytes(1536 * 1024);
    const first = await uploads.stageFile(chunks(spaceId, 'shot.gif', bytes).source, { caller: admin });
    const fileId = (await importTree(spaceId, [{ stagedId: first.stagedId }])).files['.gitbook/assets/shot.gif'];
    const second = await uploads.stageFile(chunks(spaceId, 'copy.gif', bytes).source, { caller: admin });
    const r = await importTree(spaceId, [{ stagedId: second.stagedId, paths: ['.gitbook/assets/copy.gif'], name: 'copy.gif' }], '# Home\n\n![copy](.gitbook/assets/copy.gif)\n');
    expect(r.files).toEqual({ '.gitbook/assets/copy.gif': fileId });
    expect((await blobsOf(spaceId)).map((b) => b._id)).toEqual([first.stagedId]);

    // a tree without a page fails the import: the staged file it took goes with it
    const third = await uploads.stageFile(chunks(spaceId, 'new.gif', randomBytes(100 * 1024)).source, { caller: admin });
    await expect(
      clients.revisions.importTree(
        {
          spaceId,
          tree: [],
          files: [{ paths: ['.gitbook/assets/new.gif'], name: 'new.gif', contentType: '', data: Buffer.alloc(0), stagedId: third.stagedId }],
          updateCurrent: true,
          revisionKey: '',
          git: undefined,
          reusableContents: undefined,
        },
        { caller: admin },
      ),
    ).rejects.toMatchObject({ kind: 'invalid' });
    expect((await blobsOf(spaceId)).map((b) => b._id)).toEqual([first.stagedId]);
  });
});
