import { DomainError, notFound } from '@bindery/platform/errors';
import { Caller, internalCaller } from '@bindery/platform/grpc';
import { contentV1, sitesV1 as pb } from '@bindery/shared/contracts';
import {
  isDefaultSiteSpace,
  publishedUrlOf,
  SectionGroupRecord,
  SectionRecord,
  sectionUrlOf,
  SiteAddressing,
  SiteDefaults,
  SitePermissions,
  SiteRecord,
  SiteSpaceRecord,
  siteSpaceUrlOf,
} from '@bindery/sites/domain';
import { siteMessage } from './site-messages';
import { visibleSite } from './site-access';
import type { SitesDeps } from './sites-deps';
import { organizationUrl } from './org-addresses';

/**
 * Who reads a site's structure, and how its spaces are read:
 * - a member who may view the site reads it as themselves: each space as content answers it to
 *   them (a site space whose space they cannot read is left out);
 * - anyone else holding an active share key of a published share-link site (and, for the
 *   published view, anyone reading a published public or unlisted site) reads the published
 *   site: its shown site spaces, with their spaces read by sites itself and shown read-only.
 */
export interface SiteReader {
  site: SiteRecord;
  /** the member's permissions; none when reading the published site as an outsider */
  permissions?: SitePermissions;
  /** whose eyes content reads the spaces with */
  spacesAs: Caller;
  published: boolean;
}

const SITES = internalCaller('sites');

const isNotFound = (err: unknown) => err instanceof DomainError && err.kind === 'not_found';

/** An active share link of a published share-link site, or nothing (the key itself never leaves this function). */
async function opensWithKey(deps: SitesDeps, site: SiteRecord | null, shareKey: string | undefined): Promise<boolean> {
  if (!site || shareKey === undefined || shareKey === '' || !site.published || site.visibility !== 'share-link') return false;
  return (await deps.shareLinks.activeShareLinkByKey(site._id, shareKey)) !== null;
}

/**
 * The reader of a site's structure (lists, structure): a member who may view it, or, with an
 * active share key of the published share-link site, anyone authenticated. 404 otherwise.
 */
export async function structureReader(deps: SitesDeps, caller: Caller, organizationId: string, siteId: string, shareKey?: string): Promise<SiteReader> {
  try {
    const { site, permissions } = await visibleSite(deps, caller, organizationId, siteId, 'view');
    return { site, permissions, spacesAs: caller, published: false };
  } catch (err) {
    if (!isNotFound(err) || shareKey === undefined) throw err;
  }
  const site = await deps.sites.get(organizationId, siteId);
  if (!(await opensWithKey(deps, site, shareKey))) throw notFound('Site');
  return { site: site!, spacesAs: SITES, published: true };
}

/**
 * The reader of a published site: 404 unless the site is published; then members who may view it,
 * and outsiders when it is public or unlisted, or share-link with an active key (a visitor-auth
 * site is read by its visitors through the published-URL resolver, not here).
 */
export async function publishedReader(deps: SitesDeps, caller: Caller, organizationId: string, siteId: string, shareKey?: string): Promise<SiteReader> {
  if (caller.site) {
    // a site token reads its own published site, and nothing else: another site is not there for it
    const { site, permissions } = await visibleSite(deps, caller, organizationId, siteId, 'view');
    if (!site.published) throw notFound('Site');
    return { site, permissions, spacesAs: SITES, published: true };
  }
  try {
    const { site, permissions } = await visibleSite(deps, caller, organizationId, siteId, 'view');
    if (!site.published) throw notFound('Site');
    return { site, permissions, spacesAs: SITES, published: true };
  } catch (err) {
    if (!isNotFound(err)) throw err;
  }
  const site = await deps.sites.get(organizationId, siteId);
  if (!site?.published) throw notFound('Site');
  const open = site.visibility === 'public' || site.visibility === 'unlisted' || (await opensWithKey(deps, site, shareKey));
  if (!open) throw notFound('Site');
  return { site, spacesAs: SITES, published: true };
}

const READ_ONLY: contentV1.SpacePermissions = {
  view: true,
  access: false,
  admin: false,
  viewInviteLinks: false,
  edit: false,
  triggerGitSync: false,
  comment: false,
  merge: false,
  review: false,
  installIntegration: false,
};

/**
 * The spaces of the given ids as the reader may see them (absent: not readable). Read by sites
 * itself for the published view, where they are shown read-only.
 */
export async function spacesFor(deps: SitesDeps, reader: Pick<SiteReader, 'spacesAs' | 'published'>, spaceIds: Iterable<string>): Promise<Map<string, contentV1.Space>> {
  const ids = [...new Set(spaceIds)];
  const answers = await Promise.all(
    ids.map(async (spaceId) => {
      try {
        const space = await deps.content.spaces.getSpace({ spaceId }, { caller: reader.spacesAs });
        return [spaceId, reader.published ? { ...space, permissions: READ_ONLY } : space] as const;
      } catch (err) {
        if (isNotFound(err)) return [spaceId, undefined] as const;
        throw err;
      }
    }),
  );
  const out = new Map<string, contentV1.Space>();
  for (const [id, space] of answers) if (space) out.set(id, space);
  return out;
}

/** What a message needs to know around an item: the site, its sections (for paths and defaults) and the spaces read. */
export interface MessageContext {
  site: SiteRecord;
  sections: ReadonlyMap<string, SectionRecord>;
  spaces: ReadonlyMap<string, contentV1.Space>;
  /** where the site's organization's sites live (org-addresses.ts) */
  orgUrl: string;
}

/** The shown site spaces of these sections, and the context of their messages (the spaces as `reader` may read them). */
export async function sectionsContext(deps: SitesDeps, reader: SiteReader, sections: SectionRecord[]): Promise<{ ctx: MessageContext; siteSpaces: SiteSpaceRecord[] }> {
  const { site } = reader;
  const siteSpaces = await deps.siteSpaces.shownOfSections(
    site.organizationId,
    site._id,
    sections.map((s) => s._id),
  );
  const spaces = await spacesFor(
    deps,
    reader,
    siteSpaces.map((ss) => ss.spaceId),
  );
  const ctx = { site, sections: new Map(sections.map((s) => [s._id, s])), spaces, orgUrl: await organizationUrl(deps, site.organizationId) };
  return { ctx, siteSpaces };
}

const defaultsOf = (ctx: MessageContext): SiteDefaults => ({
  defaultSectionId: ctx.site.defaultSectionId,
  defaultSiteSpaceId: ctx.site.defaultSiteSpaceId,
  sections: ctx.sections,
});

/** Where the site's items are published (the URL rules of site-urls.ts); undefined while the site is unpublished. */
function addressing(ctx: MessageContext): SiteAddressing | undefined {
  const siteUrl = publishedUrlOf(ctx.site, ctx.orgUrl);
  return siteUrl === undefined ? undefined : { ...defaultsOf(ctx), siteUrl };
}

/** The site space with its space; undefined when the reader cannot read the space (or it is hidden). */
export function siteSpaceMessage(ctx: MessageContext, ss: SiteSpaceRecord): pb.SiteSpace | undefined {
  const space = ctx.spaces.get(ss.spaceId);
  if (!space || ss.spaceDeletedAt) return undefined;
  const a = addressing(ctx);
  return {
    id: ss._id,
    path: ss.path,
    sectionId: ss.sectionId,
    spaceId: ss.spaceId,
    space,
    title: space.title,
    default: isDefaultSiteSpace(defaultsOf(ctx), ss),
    condition: ss.condition,
    publishedUrl: a && siteSpaceUrlOf(a, ss),
  };
}

/** The section with its shown site spaces (in order) that the reader can read. */
export function sectionMessage(ctx: MessageContext, section: SectionRecord, siteSpaces: SiteSpaceRecord[]): pb.SiteSection {
  const a = addressing(ctx);
  return {
    id: section._id,
    title: section.title,
    description: section.description,
    default: section._id === ctx.site.defaultSectionId,
    path: section.path,
    condition: section.condition,
    sectionGroupId: section.sectionGroupId,
    icon: section.icon,
    siteSpaces: siteSpaces.flatMap((ss) => siteSpaceMessage(ctx, ss) ?? []),
    publishedUrl: a && sectionUrlOf(a, section),
  };
}

export function groupMessage(_ctx: MessageContext, group: SectionGroupRecord, sections: pb.SiteSection[]): pb.SiteSectionGroup {
  return { id: group._id, title: group.title, icon: group.icon, sections };
}

/** The site as the published view shows it (the reader's permissions, none for outsiders). */
export function publishedSiteMessage(site: SiteRecord, permissions: SitePermissions | undefined, defaultSpace: string | undefined, orgUrl: string): pb.Site {
  return siteMessage(orgUrl, site, permissions ?? { view: false, edit: false, publish: false, admin: false }, defaultSpace);
}
