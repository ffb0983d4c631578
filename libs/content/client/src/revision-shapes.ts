import type { ContentRef, Document, LayoutOptions } from '@bindery/shared/markdown';
import type { PageCover, RevisionFile, RevisionPage, RevisionReusableContent } from '@bindery/shared/pages';
import { contentRevisionsV1 as pb, documentFromMessage } from '@bindery/shared/contracts';

/**
 * The one mapping from content's revision messages to the official JSON shapes (RevisionPage,
 * RevisionFile, RevisionReusableContent, Revision): the gateway answers them (adding `urls` and absolute
 * download URLs), the published reader, search, site redirects and Git Sync read them.
 */

/** The official ContentRef: its kind and the fields set. */
export function contentRefOf(ref: pb.ContentRef): ContentRef {
  const out: Record<string, unknown> = { kind: ref.kind };
  for (const [key, value] of Object.entries(ref)) if (key !== 'kind' && value !== undefined) out[key] = value;
  return out as ContentRef;
}

function coverOf(cover: pb.PageCover): PageCover {
  return {
    ...(cover.ref ? { ref: contentRefOf(cover.ref) } : {}),
    ...(cover.refDark ? { refDark: contentRefOf(cover.refDark) } : {}),
    yPos: cover.yPos,
    ...(cover.height !== undefined ? { height: cover.height } : {}),
  };
}

/** Only the optional fields that are set (an official page has no `emoji: undefined`). */
function present<T extends object>(fields: T): Partial<T> {
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** The official RevisionPage of a page message, with its sub-pages (without `urls`). */
export function officialPage(page: pb.RevisionPage): RevisionPage {
  const common = {
    id: page.id,
    title: page.title,
    ...present({ emoji: page.emoji, icon: page.icon }),
    createdAt: page.createdAt,
    updatedAt: page.updatedAt,
    ...present({ condition: page.condition }),
  };
  if (page.link) return { ...common, kind: 'link', type: 'link', target: contentRefOf(page.link.target ?? { kind: 'url', url: '' }), ...present({ hidden: page.hidden }) };
  if (page.computed) return { ...common, type: 'computed', computed: { type: page.computed.sourceType } };
  const placed = { slug: page.slug, path: page.path, pages: page.pages.map(officialPage) };
  const flags = present({ hidden: page.hidden, noIndex: page.noIndex, noRobotsIndex: page.noRobotsIndex });
  const doc = page.document;
  if (!doc) return { ...common, kind: 'group', type: 'group', ...placed, ...flags };
  return {
    ...common,
    kind: 'sheet',
    type: 'document',
    ...placed,
    ...present({ description: doc.description }),
    ...flags,
    layout: doc.layout as LayoutOptions,
    ...(doc.cover ? { cover: coverOf(doc.cover) } : {}),
    tags: [],
    ...present({ documentId: doc.documentId }),
    ...(doc.markdown !== undefined ? { markdown: doc.markdown } : { document: (doc.document ? documentFromMessage(doc.document) : EMPTY) as unknown as Document }),
  };
}

const EMPTY = { object: 'document', data: {}, nodes: [] };

/** The official RevisionFile (`downloadURL` as content gave it: relative to the gateway's public address). */
export function officialFile(file: pb.RevisionFile): RevisionFile {
  return {
    id: file.id,
    name: file.name,
    contentType: file.contentType,
    size: file.size,
    ...(file.dimensions ? { dimensions: { width: file.dimensions.width, height: file.dimensions.height } } : {}),
    downloadURL: file.downloadURL,
  };
}

export function officialReusableContent(content: pb.ReusableContent): RevisionReusableContent {
  return { id: content.id, title: content.title, ...present({ document: content.document }), ...(content.git ? { git: { oid: content.git.oid, path: content.git.path } } : {}) };
}

/** The official Revision without `urls`; `mergedFrom` is the change request's id. */
export function officialRevision(revision: pb.Revision) {
  return {
    object: 'revision' as const,
    id: revision.id,
    parents: revision.parents,
    type: revision.type,
    pages: revision.pages.map(officialPage),
    files: revision.files.map(officialFile),
    reusableContents: revision.reusableContents.map(officialReusableContent),
    tags: [] as unknown[],
    variables: revision.variables,
    createdAt: revision.createdAt,
    ...(revision.git
      ? {
          git: {
            oid: revision.git.oid,
            message: revision.git.message,
            createdByService: revision.git.createdByService,
            // the official GitSyncCommit (0.130.0 and 0.202.0) requires this name for the same fact
            createdByGitBook: revision.git.createdByService,
            ...present({ url: revision.git.url, ref: revision.git.ref }),
          },
        }
      : {}),
    ...present({ mergedFrom: revision.mergedFrom }),
  };
}

/** The value of one side of a changed field, as the official change attributes give it. */
function attributeValueOf(value: pb.AttributeValue): unknown {
  if (value.text !== undefined) return value.text;
  if (value.number !== undefined) return value.number;
  if (value.cover) return coverOf(value.cover);
  if (value.layout) return value.layout;
  if (value.ref) return contentRefOf(value.ref);
  if (value.dimensions) return { width: value.dimensions.width, height: value.dimensions.height };
  return undefined;
}

/** The official RevisionSemanticChange (0.202.0); a file's `downloadURL` as content gave it (relative). */
export function officialSemanticChange(change: pb.SemanticChange) {
  const attributes = Object.entries(change.attributes).map(([field, a]) => [
    field,
    { ...(a.before ? { before: attributeValueOf(a.before) } : {}), ...(a.after ? { after: attributeValueOf(a.after) } : {}) },
  ]);
  return {
    type: change.type,
    ...(change.page ? { page: { ...change.page } } : {}),
    ...(change.file ? { file: { ...change.file } } : {}),
    ...(change.parent ? { parent: present({ before: change.parent.before && { ...change.parent.before }, after: change.parent.after && { ...change.parent.after } }) } : {}),
    ...(attributes.length ? { attributes: Object.fromEntries(attributes) as Record<string, { before?: unknown; after?: unknown }> } : {}),
  };
}

/** The official ChangeRequestContentUpdateChange: a deleted page by id, the others as `{object: 'page', id}`. */
export function officialUpdateChange(change: pb.ContentUpdateChange) {
  const ref = present({ ref: change.ref });
  if (change.object === 'deleted_page') return { object: change.object, ...ref, page: change.pageId };
  return { object: change.object, ...ref, page: { object: 'page' as const, id: change.pageId } };
}

/** The official ContentReferencesStats. */
export function officialLinkStats(stats: pb.LinkStats | undefined) {
  return { total: stats?.total ?? 0, broken: { total: stats?.broken ?? 0 } };
}

/** The official ContentLocation (`organization` and `space` still ids; a URL location has neither). */
export function officialLocation(location: pb.ContentLocation) {
  if (location.kind === 'url') return { kind: 'url', url: location.url ?? '' };
  return {
    kind: location.kind,
    organization: location.organization,
    space: location.space,
    ...(location.page ? { page: officialPage(location.page) } : {}),
    ...(location.file ? { file: officialFile(location.file) } : {}),
    ...(location.anchor !== undefined ? { internalLocation: { type: 'anchor', anchor: location.anchor } } : {}),
  };
}

/** The official ContentReferenceUsage. */
export function officialLinkUsage(usage: pb.LinkUsage) {
  return {
    status: usage.status,
    relation: 'reference',
    ...(usage.targetReference ? { targetReference: officialLocation(usage.targetReference) } : {}),
    locationReferences: usage.locationReferences.map(officialLocation),
  };
}
