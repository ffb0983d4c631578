import { officialFile, officialPage, officialRevision, officialSemanticChange } from '@bindery/content/client';
import type { RevisionFile, RevisionPage } from '@bindery/shared/pages';
import { contentRevisionsV1 as pb } from '@bindery/shared/contracts';
import type { Urls } from './representations';

/**
 * The gateway's answers for content's revision messages: the official JSON (libs/content/client's
 * mapping) with what the gateway adds — `urls` (from its public and app addresses) on revisions and
 * document pages at any depth, and absolute `downloadURL`s on files.
 */
export function withPageUrls(page: RevisionPage, spaceId: string, urls: Urls): RevisionPage {
  const out: RevisionPage = { ...page };
  if (out.type === 'document') out.urls = { app: `${urls.appUrl}/s/${encodeURIComponent(spaceId)}/${out.path ?? ''}` };
  if (Array.isArray(out.pages)) out.pages = out.pages.map((p) => withPageUrls(p, spaceId, urls));
  return out;
}

export function withDownloadUrl<F extends { downloadURL?: string }>(file: F, urls: Urls): F {
  const rel = String(file.downloadURL ?? '');
  return { ...file, downloadURL: /^https?:/.test(rel) || !rel ? rel : `${urls.publicUrl}/${rel}` };
}

/** The official RevisionPage of a page message, with `urls`. */
export function pageJson(page: pb.RevisionPage, spaceId: string, urls: Urls): RevisionPage {
  return withPageUrls(officialPage(page), spaceId, urls);
}

/** The official RevisionFile of a file message, with an absolute `downloadURL`. */
export function fileJson(file: pb.RevisionFile, urls: Urls): RevisionFile {
  return withDownloadUrl(officialFile(file), urls);
}

/** The official Revision of a revision message, with `urls` (`mergedFrom` still the change request's id). */
export function revisionJson(revision: pb.Revision, spaceId: string, urls: Urls) {
  const official = officialRevision(revision);
  return {
    ...official,
    pages: official.pages.map((p) => withPageUrls(p, spaceId, urls)),
    files: official.files.map((f) => withDownloadUrl(f, urls)),
    urls: { app: `${urls.appUrl}/s/${encodeURIComponent(spaceId)}/~/revisions/${encodeURIComponent(revision.id)}` },
  };
}

/** The official semantic change; content names files with relative download URLs (their `file`, and a `downloadURL` attribute's before and after). */
export function semanticChangeJson(message: pb.SemanticChange, urls: Urls) {
  const change = officialSemanticChange(message);
  if (!change.file) return change;
  const attributes = change.attributes;
  const url = (rel: unknown) => (rel === undefined ? undefined : String(withDownloadUrl({ downloadURL: String(rel) }, urls).downloadURL));
  const download = attributes?.downloadURL;
  return {
    ...change,
    file: withDownloadUrl(change.file, urls),
    ...(download
      ? {
          attributes: {
            ...attributes,
            downloadURL: { ...(download.before !== undefined ? { before: url(download.before) } : {}), ...(download.after !== undefined ? { after: url(download.after) } : {}) },
          },
        }
      : {}),
  };
}

/** A ContentLocation with its `organization` and `space` ids replaced by the objects. */
export function locationWithObjects(location: Record<string, unknown>, organization: unknown, space: unknown, spaceId: string, urls: Urls): Record<string, unknown> {
  if (location.kind === 'url') return location;
  const out: Record<string, unknown> = { ...location, organization, space };
  if (out.page) out.page = withPageUrls(out.page as RevisionPage, spaceId, urls);
  if (out.file) out.file = withDownloadUrl(out.file as RevisionFile, urls);
  return out;
}
