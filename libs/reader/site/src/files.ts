import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ContentAccess, ReaderSource } from './source';

/** Types browsers may show in the page; anything else (HTML, SVG, unknown) is saved, never rendered on the reader's origin. */
const INLINE = /^(?:image\/(?:png|jpeg|gif|webp|avif|bmp)|audio\/[a-z0-9.+-]+|video\/[a-z0-9.+-]+|application\/pdf|text\/plain)$/;

/** RFC 6266 / 8187: an ASCII fallback and the exact UTF-8 name. */
export function contentDisposition(contentType: string, name: string): string {
  const fallback = name.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  const exact = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${INLINE.test(contentType) ? 'inline' : 'attachment'}; filename="${fallback}"; filename*=UTF-8''${exact}`;
}

/**
 * A file of the revision a site space shows, streamed from the source as the client takes it. The
 * URL names the file and its name; anything else is the same 404 as a page that does not exist.
 */
export async function serveFile(
  req: IncomingMessage,
  res: ServerResponse,
  input: { source: ReaderSource; access: ContentAccess; fileId: string; name: string; privateSite: boolean; notFound: () => unknown },
): Promise<void> {
  let name: string;
  try {
    name = decodeURIComponent(input.name);
  } catch {
    throw input.notFound();
  }
  const body = await input.source.openFile(input.access, input.fileId);
  if (!body || body.name !== name) {
    body?.cancel();
    throw input.notFound();
  }
  res.once('close', () => {
    if (!res.writableFinished) body.cancel();
  });
  res.writeHead(200, {
    'Content-Type': body.contentType,
    'Content-Length': String(body.size),
    'Content-Disposition': contentDisposition(body.contentType, body.name),
    // The same URL may show another version of the file after a merge: revalidated after a minute.
    'Cache-Control': `${input.privateSite ? 'private' : 'public'}, max-age=60`,
    'X-Content-Type-Options': 'nosniff',
    ...(body.contentType === 'application/pdf' ? {} : { 'Content-Security-Policy': "default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; sandbox" }),
  });
  if (req.method === 'HEAD') {
    body.cancel();
    res.end();
    return;
  }
  for await (const chunk of body.chunks) {
    if (res.destroyed) return;
    if (!res.write(chunk))
      await new Promise<void>((resolve) => {
        const done = () => {
          res.off('drain', done);
          res.off('close', done);
          resolve();
        };
        res.once('drain', done);
        res.once('close', done);
      });
  }
  res.end();
}
