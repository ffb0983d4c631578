import { invalid, notFound, DomainError } from '@bindery/platform/errors';
import type { Caller } from '@bindery/platform/grpc';
import { contentV1, NullableString, PageInfo, PageRequest, sitesStructureV1 as structure, sitesV1 as pb } from '@bindery/shared/contracts';
import { loadStructure } from '@bindery/sites/data-access';
import { assertCondition, ItemPosition, SiteRecord, SiteStructure } from '@bindery/sites/domain';
import { decodeCursor, resolveLimit, toPage } from '@bindery/shared/pagination';
import type { SitesDeps } from './sites-deps';
import { groupMessage, MessageContext, sectionMessage, SiteReader, siteSpaceMessage, spacesFor } from './structure-reads';
import { organizationUrl } from './org-addresses';

/** How many times a read of a whole structure starts again when a change lands while it reads. */
const READ_ATTEMPTS = 5;

/**
 * A site's whole structure as one consistent state, read outside a transaction: the site is read
 * again after its items, and a structure version that moved meanwhile reads again.
 */
export async function readStructure(deps: SitesDeps, site: SiteRecord): Promise<{ site: SiteRecord; structure: SiteStructure }> {
  let current = site;
  for (let attempt = 1; ; attempt += 1) {
    const state = await loadStructure(deps, current);
    const again = await deps.sites.get(current.organizationId, current._id);
    if (!again) throw notFound('Site');
    if (again.structureVersion === current.structureVersion || attempt >= READ_ATTEMPTS) return { site: current, structure: new SiteStructure(state) };
    current = again;
  }
}

/** The context of messages about a structure, with the spaces of its shown site spaces as the reader may read them. */
export async function viewOf(deps: SitesDeps, reader: Pick<SiteReader, 'spacesAs' | 'published'>, site: SiteRecord, s: SiteStructure, only?: string[]): Promise<MessageContext> {
  const shown = s.state.siteSpaces.filter((ss) => !ss.spaceDeletedAt && (!only || only.includes(ss._id)));
  const spaces = await spacesFor(
    deps,
    reader,
    shown.map((ss) => ss.spaceId),
  );
  return { site, sections: new Map(s.state.sections.map((x) => [x._id, x])), spaces, orgUrl: await organizationUrl(deps, site.organizationId) };
}

export function sectionOf(ctx: MessageContext, s: SiteStructure, sectionId: string): pb.SiteSection {
  return sectionMessage(ctx, s.section(sectionId), s.siteSpacesOf(sectionId));
}

export function groupOf(ctx: MessageContext, s: SiteStructure, groupId: string): pb.SiteSectionGroup {
  return groupMessage(
    ctx,
    s.group(groupId),
    s.sectionsOf(groupId).map((x) => sectionOf(ctx, s, x._id)),
  );
}

/** The site's top level: its sections and groups in order when it has sections, else its site spaces. */
export function structureMessage(ctx: MessageContext, s: SiteStructure): structure.SiteStructure {
  if (!s.hasSections())
    return { type: 'siteSpaces', items: s.siteSpacesOf(undefined).flatMap((ss) => (siteSpaceMessage(ctx, ss) ? [{ siteSpace: siteSpaceMessage(ctx, ss) }] : [])) };
  return {
    type: 'sections',
    items: s.topLevel().map((i) => (i.type === 'site-section' ? { section: sectionOf(ctx, s, i.record._id) } : { sectionGroup: groupOf(ctx, s, i.record._id) })),
  };
}

/** The space a caller adds to a site: one they can read, of the site's organization (else 400: it is the body that is wrong). */
export async function spaceToAdd(deps: SitesDeps, caller: Caller, site: SiteRecord, spaceId: string): Promise<contentV1.Space> {
  try {
    const space = await deps.content.spaces.getSpace({ spaceId }, { caller });
    if (space.organization === site.organizationId && !space.deletedAt) return space;
  } catch (err) {
    if (!(err instanceof DomainError && err.kind === 'not_found')) throw err;
  }
  throw invalid('spaceId names no space of this organization that you can read.');
}

/** A condition as written (validated), or its removal: undefined leaves the item's condition as it is. */
export function conditionChange(condition: NullableString | undefined): { value?: string } | undefined {
  if (condition === undefined) return undefined;
  if (condition.value !== undefined) assertCondition(condition.value);
  return { value: condition.value };
}

/** The position a request gives (absent: to the end). */
export function positionOf(p: structure.StructurePosition | undefined): ItemPosition {
  return { before: p?.before, after: p?.after };
}

/** A page of a list ordered by (order, id), in the shape every list answers. */
export async function pageBy<R extends { _id: string; order: number }, T>(
  request: PageRequest | undefined,
  fetch: (limit: number, after?: { k?: string | number; id: string }) => Promise<R[]>,
  count: () => Promise<number>,
  map: (rows: R[]) => Promise<T[]> | T[],
): Promise<{ items: T[]; page: PageInfo }> {
  const limit = resolveLimit(request?.limit);
  const after = decodeCursor(request?.page || undefined);
  const [rows, total] = await Promise.all([fetch(limit, after), count()]);
  const page = toPage(
    rows,
    limit,
    total,
    (r) => ({ k: r.order, id: r._id }),
    (r) => r,
  );
  return { items: await map(page.items), page: { count: page.count, nextPage: page.nextPage } };
}
