import type { Request, Response } from 'express';
import { notFound } from '@bindery/platform/errors';
import { connectContent, connectContentDownloads, ContentClients, ContentDownloadsClient, downloadTokenExpiry } from '@bindery/content/client';
import type { RawRoute } from '@bindery/gateway/http';

/** A download may take this long, whatever the request budget (100 MB at ~30 KB/s). */
export const DOWNLOAD_DEADLINE_MS = 60 * 60 * 1000;

/** Types browsers may show in the page; anything else (HTML, SVG, unknown) is saved, never rendered on our origin. */
const INLINE = /^(?:image\/(?:png|jpeg|gif|webp|avif|bmp)|audio\/[a-z0-9.+-]+|video\/[a-z0-9.+-]+|application\/pdf|text\/plain)$/;

/** RFC 6266 / 8187: an ASCII fallback (quotes, controls, non-ASCII replaced) and the exact UTF-8 name. */
export function contentDisposition(contentType: string, name: string): string {
  const fallback = name.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  const exact = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${INLINE.test(contentType) ? 'inline' : 'attachment'}; filename="${fallback}"; filename*=UTF-8''${exact}`;
}

function drained(res: Response): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.once('drain', done);
    res.once('close', done);
  });
}

/**
 * GET /downloads/:token/:name — a file's bytes, authorized by the signed token of its `downloadURL`
 * alone (no API token: browsers follow these links). A bad, tampered or expired token, a name other
 * than the token's, and a file that is gone are one 404. The bytes are passed on as they come, the
 * next chunk asked for only when the client took the last one.
 */
export function downloadRoutes(downloads: ContentDownloadsClient, deadlineMs = DOWNLOAD_DEADLINE_MS): RawRoute[] {
  return [
    {
      method: 'get',
      path: '/downloads/:token{/:name}',
      async handler(req: Request, res: Response) {
        const { token, name } = req.params as { token: string; name?: string };
        const replies = downloads.downloadFile({ token }, { deadline: new Date(Date.now() + deadlineMs) });
        const chunks = replies[Symbol.asyncIterator]();
        // A client that leaves stops the transfer all the way to storage.
        res.once('close', () => {
          if (!res.writableFinished) replies.cancel();
        });
        const first = await chunks.next();
        const head = first.done ? undefined : first.value.head;
        if (!head || (name !== undefined && name !== head.name)) {
          replies.cancel();
          throw notFound('File');
        }
        const expiresAt = downloadTokenExpiry(token) ?? Date.now();
        res.status(200);
        res.setHeader('Content-Type', head.contentType);
        res.setHeader('Content-Length', String(head.size));
        res.setHeader('Content-Disposition', contentDisposition(head.contentType, head.name));
        res.setHeader('Cache-Control', `private, max-age=${Math.max(0, Math.floor((expiresAt - Date.now()) / 1000))}`);
        res.setHeader('X-Content-Type-Options', 'nosniff');
        // Whatever the file holds, it runs no script and loads nothing on our origin (PDF viewers need an unsandboxed page).
        if (head.contentType !== 'application/pdf') res.setHeader('Content-Security-Policy', "default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; sandbox");
        if (req.method === 'HEAD') {
          replies.cancel();
          res.end();
          return;
        }
        for (;;) {
          const next = await chunks.next();
          if (next.done) break;
          if (res.destroyed) return;
          const data = next.value.data;
          if (data && !res.write(data)) await drained(res);
        }
        res.end();
      },
    },
  ];
}

/** Content's clients with the downloads client beside them (one `close` for all). */
export function connectContentWithDownloads(address: string, defaultDeadlineMs: number): ContentClients & { downloads: ContentDownloadsClient; close(): void } {
  const clients = connectContent(address, defaultDeadlineMs);
  const downloads = connectContentDownloads(address, DOWNLOAD_DEADLINE_MS);
  const closeClients = clients.close;
  return Object.assign(clients, {
    downloads,
    close: () => {
      closeClients();
      downloads.close();
    },
  });
}
