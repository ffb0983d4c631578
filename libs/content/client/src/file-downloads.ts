import { grpcStreamingClient, StreamingClientOf } from '@bindery/platform/grpc';
import { contentRevisionsV1 } from '@bindery/shared/contracts';

const DOWNLOADS = contentRevisionsV1.FileDownloadsServiceService;

/**
 * A streaming client of content's FileDownloadsService. The deadline covers a whole download: pass
 * one sized for the largest file over the slowest reader you accept, not a unary budget.
 */
export const connectContentDownloads = (address: string, defaultDeadlineMs: number) => grpcStreamingClient(DOWNLOADS, address, defaultDeadlineMs);
export type ContentDownloadsClient = StreamingClientOf<typeof DOWNLOADS>;

/** The token of a file's `downloadURL` (`…/downloads/<token>/<name>`), as FileDownloadsService takes it. */
export function downloadTokenOf(downloadURL: string | undefined): string | undefined {
  const token = downloadURL ? /(?:^|\/)downloads\/([^/?#]+)/.exec(downloadURL)?.[1] : undefined;
  if (!token) return undefined;
  try {
    return decodeURIComponent(token);
  } catch {
    return undefined;
  }
}

/**
 * When a download token expires (ms since the epoch), read WITHOUT verifying it: only for cache
 * headers of a download content has already accepted. The layout is content's
 * (libs/content/domain/src/download-token.ts: base64url JSON `[1, space, blob, name, type, expiresAt]`).
 */
export function downloadTokenExpiry(token: string): number | undefined {
  try {
    const payload = JSON.parse(Buffer.from(token.split('.', 1)[0] ?? '', 'base64url').toString('utf8')) as unknown;
    const expiresAt = Array.isArray(payload) ? payload[5] : undefined;
    return typeof expiresAt === 'number' && Number.isFinite(expiresAt) ? expiresAt : undefined;
  } catch {
    return undefined;
  }
}
