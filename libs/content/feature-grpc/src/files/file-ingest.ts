import { DomainError, invalid } from '@bindery/platform/errors';
import { outboundFailure, SafeFetch, safeFetch } from '@bindery/platform/outbound-http';
import { newId } from '@bindery/shared/ids';
import { BLOB_CHUNK_BYTES, BlobStore, BlobTooLargeError, StoredBlob } from '@bindery/content/data-access';
import type { FileNode, InsertFileItem } from '@bindery/content/domain';
import { imageDimensionsOf, sniffContentType } from './content-type-sniffing';

export interface IngestOptions {
  /** the largest file accepted (CONTENT_FILE_MAX_BYTES) */
  maxBytes: number;
  /** the budget of a url fetch, body included (CONTENT_FILE_FETCH_TIMEOUT_MS) */
  fetchTimeoutMs: number;
  /** from outboundPolicyFromEnv(): whether urls may reach loopback and private addresses */
  allowPrivate: boolean;
  /** the outbound guard; replaceable in tests only */
  fetch?: SafeFetch;
}

/** The official limit of an inline upload (0.202.0: "base64 (inline bytes, max 1MB)"). */
export const MAX_BASE64_BYTES = 1024 * 1024;
/** How much of an image is read again when its first 64 KiB do not give its dimensions. */
const DIMENSIONS_PREFIX_BYTES = 1024 * 1024;

interface Source {
  bytes: AsyncIterable<Uint8Array>;
  /** the source server's Content-Type, for the type rule */
  contentType?: string;
}

/**
 * Stores one official `insert_files` item of a space and answers its record: the bytes fetched from
 * `url` (through the outbound guard, streamed into the store) or decoded from `base64`, typed by
 * sniffing (content-type-sniffing.ts), images measured.
 * Preconditions: the caller may edit the space; `item` passed parseChanges (a name, one source).
 * Side effects: one blob in the store. Refusals (400: bad source, refused or failing url, over the
 * size limit) and failures leave nothing stored.
 */
export async function ingestFile(store: BlobStore, spaceId: string, item: InsertFileItem, options: IngestOptions): Promise<FileNode> {
  const label = `file "${item.name}"`;
  const source = 'url' in item ? await fetchSource(item.url, label, options) : base64Source(item.base64, item.contentType, label, options);
  let stored: StoredBlob;
  try {
    stored = await store.put(spaceId, source.bytes, { maxBytes: options.maxBytes, filename: item.name });
  } catch (err) {
    if (err instanceof BlobTooLargeError) throw tooLarge(label, options.maxBytes);
    throw err;
  }
  return fileOfBlob(store, spaceId, stored, item.name, { given: item.contentType, source: source.contentType });
}

/**
 * The record of a stored blob: typed by sniffing, images measured. On failure the blob is removed.
 */
export async function fileOfBlob(store: BlobStore, spaceId: string, stored: StoredBlob, name: string, types: { given?: string; source?: string }): Promise<FileNode> {
  try {
    const contentType = await sniffContentType(stored.head, types);
    const dimensions = await dimensionsOf(store, spaceId, stored, contentType);
    return { id: newId(), name, contentType, size: stored.size, ...(dimensions ? { dimensions } : {}), blobId: stored.blobId, sha256: stored.sha256 };
  } catch (err) {
    await store.remove(spaceId, [stored.blobId]);
    throw err;
  }
}

/**
 * Stores bytes sent in pieces as a staged blob of the space (FileUploadsService.StageFile), removed
 * at `stagedUntil` unless an import takes it. Over `maxBytes`: 400 naming the file, nothing stored.
 */
export async function stageFile(store: BlobStore, spaceId: string, name: string, bytes: AsyncIterable<Uint8Array>, maxBytes: number, stagedUntil: Date): Promise<StoredBlob> {
  try {
    return await store.put(spaceId, bytes, { maxBytes, filename: name, stagedUntil });
  } catch (err) {
    if (err instanceof BlobTooLargeError) throw tooLarge(`file "${name}"`, maxBytes);
    throw err;
  }
}

async function fetchSource(url: string, label: string, options: IngestOptions): Promise<Source> {
  const fetch = options.fetch ?? safeFetch;
  let response: Response;
  try {
    response = await fetch(url, { allowPrivate: options.allowPrivate, timeoutMs: options.fetchTimeoutMs, headers: { accept: '*/*' } });
  } catch (err) {
    throw fetchFailure(err, label, options);
  }
  if (!response.ok) {
    await response.body?.cancel().catch(() => undefined);
    throw invalid(`The url of ${label} answered HTTP ${response.status}.`);
  }
  // Refused before reading when the server says how much is coming; enforced while streaming anyway.
  const length = Number(response.headers.get('content-length') ?? NaN);
  if (Number.isFinite(length) && length > options.maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw tooLarge(label, options.maxBytes);
  }
  return { bytes: bodyOf(response, label, options), contentType: response.headers.get('content-type') ?? undefined };
}

/** The response body as it arrives; a failure part way (reset, timeout) becomes a refusal of the file. */
async function* bodyOf(response: Response, label: string, options: IngestOptions): AsyncGenerator<Uint8Array> {
  if (!response.body) return;
  const reader = response.body.getReader();
  try {
    for (;;) {
      let next: Awaited<ReturnType<typeof reader.read>>;
      try {
        next = await reader.read();
      } catch (err) {
        throw fetchFailure(err, label, options);
      }
      if (next.done) return;
      yield next.value;
    }
  } finally {
    // Stopping early (the size limit) closes the connection instead of reading the rest.
    await reader.cancel().catch(() => undefined);
  }
}

/** What went wrong with a url, for the person who sent it: the host at most, never the url (it may hold credentials). */
function fetchFailure(err: unknown, label: string, options: IngestOptions): DomainError {
  if (err instanceof DomainError) return err;
  return invalid(outboundFailure(err, `The url of ${label}`, { timeoutMs: options.fetchTimeoutMs, timedOut: 'deliver the file', abortIsTimeout: true }).message);
}

function base64Source(base64: string, contentType: string | undefined, label: string, options: IngestOptions): Source {
  if (!contentType) throw invalid(`The contentType of ${label} is required with base64.`);
  const text = base64.replace(/\s+/g, '');
  // Buffer.from ignores what it cannot decode; refuse instead of storing something else than was sent.
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(text) || text.replace(/=+$/, '').length % 4 === 1) throw invalid(`The base64 of ${label} is not valid base64.`);
  const limit = Math.min(MAX_BASE64_BYTES, options.maxBytes);
  if (Math.floor((text.replace(/=+$/, '').length * 3) / 4) > limit) {
    throw limit < MAX_BASE64_BYTES ? tooLarge(label, limit) : invalid(`The base64 of ${label} holds more than 1 MB; upload larger files by url.`);
  }
  const bytes = Buffer.from(text, 'base64');
  return { bytes: piecesOf(bytes) };
}

async function* piecesOf(bytes: Buffer): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < bytes.length; at += BLOB_CHUNK_BYTES) yield bytes.subarray(at, at + BLOB_CHUNK_BYTES);
}

function tooLarge(label: string, maxBytes: number): DomainError {
  return invalid(`The ${label} is larger than ${sizeText(maxBytes)}.`);
}

/** 104857600 → '100 MB' (binary units, as upload limits are usually read). */
export function sizeText(bytes: number): string {
  const MB = 1024 * 1024;
  if (bytes >= MB && bytes % MB === 0) return `${bytes / MB} MB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KB`;
  return `${bytes} bytes`;
}

async function dimensionsOf(store: BlobStore, spaceId: string, stored: StoredBlob, contentType: string) {
  if (!contentType.startsWith('image/')) return undefined;
  const fromHead = imageDimensionsOf(stored.head, contentType);
  if (fromHead || stored.size <= stored.head.length) return fromHead;
  // A JPEG with large metadata: read a little more, bounded, rather than give up at once.
  const { stream } = await store.open(spaceId, stored.blobId);
  const parts: Buffer[] = [];
  let length = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      parts.push(chunk);
      length += chunk.length;
      if (length >= DIMENSIONS_PREFIX_BYTES) break;
    }
  } finally {
    stream.destroy();
  }
  return imageDimensionsOf(Buffer.concat(parts), contentType);
}
