import type { Urls } from './representations';

/**
 * What the gateway adds to content's revision JSON: `urls` (from its public and app addresses) on
 * revisions and document pages at any depth, and absolute `downloadURL`s on files.
 */
export function withPageUrls(page: Record<string, unknown>, spaceId: string, urls: Urls): Record<string, unknown> {
  const out: Record<string, unknown> = { ...page };
  if (out.type === 'document') out.urls = { app: `${urls.appUrl}/s/${encodeURIComponent(spaceId)}/${String(out.path ?? '')}` };
  if (Array.isArray(out.pages)) out.pages = out.pages.map((p) => withPageUrls(p as Record<string, unknown>, spaceId, urls));
  return out;
}

export function withDownloadUrl(file: Record<string, unknown>, urls: Urls): Record<string, unknown> {
  const rel = String(file.downloadURL ?? '');
  return { ...file, downloadURL: /^https?:/.test(rel) || !rel ? rel : `${urls.publicUrl}/${rel}` };
}

export function revisionWithUrls(revision: Record<string, unknown>, spaceId: string, urls: Urls): Record<string, unknown> {
  return {
    ...revision,
    pages: (revision.pages as Record<string, unknown>[]).map((p) => withPageUrls(p, spaceId, urls)),
    files: (revision.files as Record<string, unknown>[]).map((f) => withDownloadUrl(f, urls)),
    urls: { app: `${urls.appUrl}/s/${encodeURIComponent(spaceId)}/~/revisions/${encodeURIComponent(String(revision.id))}` },
  };
}

/** A ContentLocation with its `organization` and `space` ids replaced by the objects. */
export function locationWithObjects(location: Record<string, unknown>, organization: unknown, space: unknown, spaceId: string, urls: Urls): Record<string, unknown> {
  if (location.kind === 'url') return location;
  const out: Record<string, unknown> = { ...location, organization, space };
  if (out.page) out.page = withPageUrls(out.page as Record<string, unknown>, spaceId, urls);
  if (out.file) out.file = withDownloadUrl(out.file as Record<string, unknown>, urls);
  return out;
}
