import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { Binary, Db, GridFSBucket, GridFSBucketWriteStream } from 'mongodb';
import { notFound } from '@bindery/platform/errors';
import type { IndexPlan } from '@bindery/platform/mongo';
import { logger } from '@bindery/platform/telemetry';
import { newSortableId } from '@bindery/shared/ids';
import { BLOB_CHUNK_BYTES, BLOB_HEAD_BYTES, BlobStore, BlobTooLargeError, OpenedBlob, PutOptions, StoredBlob } from './blob-store';

/** The GridFS bucket of content's database: `blobs.files` (one document per blob) and `blobs.chunks`. */
export const BLOB_BUCKET = 'blobs';

interface BlobFile {
  _id: string;
  length: number;
  filename: string;
  metadata: { spaceId: string; stagedUntil?: Date; sha256?: string };
}

/**
 * The indexes the bucket needs: by space (open, remove, purge), and the two the driver would
 * otherwise create lazily on the first upload (declared here so every replica agrees at start).
 */
export const BLOB_INDEXES: IndexPlan = {
  [`${BLOB_BUCKET}.files`]: [
    { key: { 'metadata.spaceId': 1 }, name: 'by_space' },
    { key: { filename: 1, uploadDate: 1 }, name: 'filename_1_uploadDate_1' },
    { key: { 'metadata.stagedUntil': 1 }, name: 'staged_until', sparse: true },
  ],
  [`${BLOB_BUCKET}.chunks`]: [{ key: { files_id: 1, n: 1 }, name: 'files_id_1_n_1', unique: true }],
};

/** Chunks fetched per round trip when reading: the driver's default first batch (101 chunks, ~25 MB) would hold a file's worth. */
const READ_BATCH_CHUNKS = 4;

/** Resolves once GridFS has taken `chunk` (and stored every full chunk it completed). */
function write(upload: GridFSBucketWriteStream, chunk: Buffer): Promise<void> {
  return new Promise((resolve, reject) => upload.write(chunk, (err) => (err ? reject(err) : resolve())));
}

function end(upload: GridFSBucketWriteStream): Promise<void> {
  return new Promise((resolve, reject) => {
    upload.once('finish', resolve);
    upload.once('error', reject);
    upload.end();
  });
}

/**
 * Blobs in GridFS, in the content service's own database. A blob's id is sortable by creation time
 * (so a sweeper could tell an old orphan from an upload in progress), and its files document carries
 * `metadata.spaceId`, which every read and removal matches.
 */
export class GridFsBlobStore implements BlobStore {
  private readonly bucket: GridFSBucket;

  constructor(private readonly db: Db) {
    this.bucket = new GridFSBucket(db, { bucketName: BLOB_BUCKET, chunkSizeBytes: BLOB_CHUNK_BYTES });
  }

  private get files() {
    return this.db.collection<BlobFile>(`${BLOB_BUCKET}.files`);
  }

  private get chunks() {
    return this.db.collection<{ files_id: string; n: number; data: Binary }>(`${BLOB_BUCKET}.chunks`);
  }

  async put(spaceId: string, source: AsyncIterable<Uint8Array>, { maxBytes, filename, stagedUntil }: PutOptions): Promise<StoredBlob> {
    const blobId = newSortableId();
    const upload = this.bucket.openUploadStreamWithId(blobId as never, filename, { metadata: { spaceId, ...(stagedUntil ? { stagedUntil } : {}) } });
    // Failures reach us through write/end callbacks; the event must not go unhandled.
    upload.on('error', () => undefined);
    const hash = createHash('sha256');
    const head: Buffer[] = [];
    let headLength = 0;
    let size = 0;
    try {
      // One piece at a time: the next is read only once GridFS has stored what it completed, so the
      // memory held is one GridFS chunk plus one piece, whatever the file's size.
      for await (const piece of source) {
        const chunk = Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength);
        size += chunk.length;
        if (size > maxBytes) throw new BlobTooLargeError(maxBytes);
        hash.update(chunk);
        if (headLength < BLOB_HEAD_BYTES) {
          const part = Buffer.from(chunk.subarray(0, BLOB_HEAD_BYTES - headLength));
          head.push(part);
          headLength += part.length;
        }
        await write(upload, chunk);
      }
      await end(upload);
    } catch (err) {
      upload.destroy();
      await this.removeByIds([blobId]).catch((cleanup) => logger.error('partial blob left in storage', { blobId, error: String(cleanup) }));
      throw err;
    }
    const sha256 = hash.digest('hex');
    // a staged blob is taken later by id alone: its digest stays with it (one without is never taken, only swept)
    if (stagedUntil) await this.files.updateOne({ _id: blobId }, { $set: { 'metadata.sha256': sha256 } });
    return { blobId, size, sha256, head: Buffer.concat(head) };
  }

  async takeStaged(spaceId: string, blobIds: readonly string[], now: Date): Promise<Map<string, StoredBlob>> {
    const taken = new Map<string, StoredBlob>();
    if (!blobIds.length) return taken;
    const staged = { 'metadata.spaceId': spaceId, 'metadata.stagedUntil': { $gt: now }, 'metadata.sha256': { $exists: true } };
    const found = await this.files.find({ _id: { $in: [...blobIds] }, ...staged }, { projection: { length: 1, metadata: 1 } }).toArray();
    for (const file of found) {
      // conditional: two imports naming one staged blob cannot both take it, nor take it as the sweep removes it
      const { modifiedCount } = await this.files.updateOne({ _id: file._id, ...staged }, { $unset: { 'metadata.stagedUntil': '' } });
      if (!modifiedCount) continue;
      const first = await this.chunks.findOne({ files_id: file._id, n: 0 }, { projection: { data: 1 } });
      const data = first?.data.buffer;
      const head = data ? Buffer.from(data.buffer, data.byteOffset, Math.min(data.byteLength, BLOB_HEAD_BYTES)) : Buffer.alloc(0);
      taken.set(file._id, { blobId: file._id, size: file.length, sha256: file.metadata.sha256!, head: Buffer.from(head) });
    }
    return taken;
  }

  async removeExpiredStaged(now: Date): Promise<number> {
    let removed = 0;
    for (;;) {
      const batch = await this.files
        .find({ 'metadata.stagedUntil': { $lte: now } }, { projection: { _id: 1 } })
        .limit(500)
        .toArray();
      if (!batch.length) return removed;
      // each claimed for removal first, conditionally: a take that got there between the read and now keeps
      // its blob (the take unset the expiry), and no take succeeds after the claim (an expiry in 1970)
      const claimed: string[] = [];
      for (const f of batch) {
        const { matchedCount } = await this.files.updateOne({ _id: f._id, 'metadata.stagedUntil': { $lte: now } }, { $set: { 'metadata.stagedUntil': new Date(0) } });
        if (matchedCount) claimed.push(f._id);
      }
      await this.removeByIds(claimed);
      removed += claimed.length;
    }
  }

  async open(spaceId: string, blobId: string): Promise<OpenedBlob> {
    const file = await this.files.findOne({ _id: blobId, 'metadata.spaceId': spaceId }, { projection: { length: 1 } });
    if (!file) throw notFound('File');
    return { size: file.length, stream: this.read(blobId, file.length) };
  }

  async copy(fromSpaceId: string, blobId: string, toSpaceId: string): Promise<string> {
    const file = await this.files.findOne({ _id: blobId, 'metadata.spaceId': fromSpaceId }, { projection: { filename: 1, length: 1 } });
    if (!file) throw notFound('File');
    const copied = await this.put(toSpaceId, this.read(blobId, file.length), { maxBytes: Number.POSITIVE_INFINITY, filename: file.filename });
    return copied.blobId;
  }

  async remove(spaceId: string, blobIds: readonly string[]): Promise<void> {
    if (!blobIds.length) return;
    const owned = await this.files.find({ _id: { $in: [...blobIds] }, 'metadata.spaceId': spaceId }, { projection: { _id: 1 } }).toArray();
    await this.removeByIds(owned.map((f) => f._id));
  }

  async removeOfSpace(spaceId: string): Promise<void> {
    for (;;) {
      const batch = await this.files
        .find({ 'metadata.spaceId': spaceId }, { projection: { _id: 1 } })
        .limit(500)
        .toArray();
      if (!batch.length) return;
      await this.removeByIds(batch.map((f) => f._id));
    }
  }

  /**
   * A blob's chunks in order, a few per round trip, pulled only as fast as the reader takes them;
   * destroying the stream closes the cursor. A missing chunk or a short blob fails the stream.
   */
  private read(blobId: string, length: number): Readable {
    const cursor = this.chunks
      .find({ files_id: blobId }, { projection: { n: 1, data: 1 } })
      .sort({ n: 1 })
      .batchSize(READ_BATCH_CHUNKS);
    async function* chunks() {
      let expected = 0;
      let seen = 0;
      try {
        for await (const chunk of cursor) {
          if (chunk.n !== expected) throw new Error(`blob ${blobId}: chunk ${expected} is missing`);
          expected += 1;
          const data = chunk.data.buffer;
          seen += data.length;
          yield Buffer.from(data.buffer, data.byteOffset, data.byteLength);
        }
        if (seen !== length) throw new Error(`blob ${blobId}: ${seen} of ${length} bytes stored`);
      } finally {
        await cursor.close();
      }
    }
    return Readable.from(chunks(), { objectMode: false });
  }

  /** Chunks first, then the files documents: a removal cut short is found again by its files document. */
  private async removeByIds(ids: string[]): Promise<void> {
    if (!ids.length) return;
    await this.chunks.deleteMany({ files_id: { $in: ids } });
    await this.files.deleteMany({ _id: { $in: ids } });
  }
}
