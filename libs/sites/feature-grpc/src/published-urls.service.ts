import { DomainError, invalid, notFound } from '@bindery/platform/errors';
import { Caller, internalCaller } from '@bindery/platform/grpc';
import type { contentV1 } from '@bindery/shared/contracts';
import { sitesPublishedV1 as pb } from '@bindery/shared/contracts';
import { loadShownItems } from '@bindery/sites/data-access';
import {
  audienceSpaceIds,
  conditionVisitor,
  decodeSegments,
  locateInSite,
  pageUrl,
  parsePublishedUrl,
  type BelowSite,
  type ConditionVisitor,
  type PublishedUrl,
  REDIRECT_SOURCE_MAX,
  REDIRECT_SOURCE_PATTERN,
  SHARE_LINK_SEGMENT,
  SiteRecord,
  siteSpaceUrlOf,
  siteUrlOf,
  verifyVisitorToken,
  VISITOR_TOKEN_MAX,
} from '@bindery/sites/domain';
import { organizationUrl } from './org-addresses';
import { liveRedirectOf, pagesOf, ShownItems } from './redirects.service';
import { visibleSite } from './site-access';
import { mintSiteToken } from './site-tokens';
import { nowOf, SitesDeps } from './sites-deps';

/** Sites reads what a published URL shows itself: the visitor is no member, the URL is the credential. */
const SITES = internalCaller('sites');

const NOT_PUBLISHED_HERE = () => notFound('Published content');
const isNotFound = (err: unknown) => err instanceof DomainError && err.kind === 'not_found';
const SOURCE = new RegExp(REDIRECT_SOURCE_PATTERN);

/** The visitor token's claims when the site's key verifies it (a site without a key verifies none). */
async function verifiedVisitor(deps: SitesDeps, site: SiteRecord, token: string | undefined) {
  if (!token || token.length > VISITOR_TOKEN_MAX) return undefined;
  const key = await deps.visitorKeys.get(site.organizationId, site._id);
  return key ? verifyVisitorToken(token, key, deps.clock()) : undefined;
}

/** The space a site space shows, at its current revision; undefined when it is gone, deleted or not the site's organization's. */
async function publishedSpace(deps: SitesDeps, site: SiteRecord, spaceId: string): Promise<contentV1.Space | undefined> {
  try {
    const space = await deps.content.spaces.getSpace({ spaceId }, { caller: SITES });
    return space.organization === site.organizationId && !space.deletedAt && space.revision ? space : undefined;
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}

/** Whether the revision has a page at the path (a group or link page counts: the reader answers those itself). */
async function hasPage(deps: SitesDeps, space: contentV1.Space, pathname: string): Promise<boolean> {
  try {
    return (await pagesOf(deps, space.id, SITES, space.revision)).some((p) => p.path === pathname);
  } catch (err) {
    if (isNotFound(err)) return false;
    throw err;
  }
}

/** The live redirect of the path below the site, as the resolver answers it; undefined when none matches. */
async function redirectAnswer(deps: SitesDeps, site: SiteRecord, segments: string[], shown: ShownItems): Promise<pb.PublishedSiteContent | undefined> {
  const source = `/${segments.join('/')}`;
  if (segments.length === 0 || source.length > REDIRECT_SOURCE_MAX || !SOURCE.test(source)) return undefined;
  const found = await liveRedirectOf(deps, site, source, shown);
  if (!found) return undefined;
  return redirectReply(site, found.target, found.redirect.destination.kind === 'external' ? 'external' : 'content', false);
}

/** A URL's path, with a trailing slash. */
const pathWithSlash = (url: string) => `${new URL(url).pathname.replace(/\/+$/, '')}/`;

/** The answer sending an address on to where its site is now, for good (the reader answers 301). */
function movedAnswer(site: SiteRecord, siteUrl: string, below: BelowSite, trailingSlash: boolean): pb.PublishedSiteContent {
  const share = below.shareKey ? `/${SHARE_LINK_SEGMENT}/${encodeURIComponent(below.shareKey)}` : '';
  const rest = below.segments.length ? `/${below.segments.join('/')}` : '';
  return redirectReply(site, `${siteUrl}${share}${rest}${trailingSlash ? '/' : ''}`, 'content', true);
}

/** The resolver's answer sending the caller to `redirect` (the reader answers 301 when `permanent`, else 302). */
function redirectReply(site: SiteRecord, redirect: string, target: 'content' | 'external', permanent: boolean): pb.PublishedSiteContent {
  return {
    organizationId: site.organizationId,
    siteId: site._id,
    siteSpaceId: '',
    spaceId: '',
    revisionId: '',
    pathname: '',
    basePath: '',
    siteBasePath: '',
    canonicalUrl: '',
    complete: false,
    apiToken: '',
    redirect,
    redirectTarget: target,
    redirectPermanent: permanent,
  };
}

/** `moved`: the address is another form of `site`'s, answered with a redirect once the visitor may see the site (with `shareKey`). */
type Found = { site: SiteRecord; askedSiteUrl: string } | { moved: pb.PublishedSiteContent; site: SiteRecord; shareKey?: string } | undefined;

/**
 * The published site a URL names, and its URL in the form asked (the paths of the answer follow it);
 * or, for an address of another form than the site's own — the earlier `<reader>/<basename>`, the
 * organization by id where it has a hostname, the reader's path where the organization has a host
 * below the reader domain — the answer sending it there.
 */
async function siteOf(deps: SitesDeps, parsed: PublishedUrl, trailingSlash: boolean): Promise<Found> {
  const loc = parsed.site;
  if (loc.hostname !== undefined) {
    const site = await deps.sites.byHostname(loc.hostname);
    return site?.published ? { site, askedSiteUrl: siteUrlOf(site, '') } : undefined;
  }
  // an organization's id first: an id's URL can never be taken by a hostname another organization chooses
  let site = loc.form === 'path' && loc.basename ? await deps.sites.byBasename(loc.organization, loc.basename) : null;
  if (!site && loc.basename) {
    const orgId = await deps.organizations.byHostname(loc.organization);
    site = orgId ? await deps.sites.byBasename(orgId, loc.basename) : null;
  }
  if (!site) {
    // the form of earlier versions: the first created site of that basename
    const earlier = parsed.legacy && (await deps.sites.firstWithBasename(parsed.legacy.basename));
    return earlier?.published && parsed.legacy
      ? {
          moved: movedAnswer(earlier, siteUrlOf(earlier, await organizationUrl(deps, earlier.organizationId)), parsed.legacy, trailingSlash),
          site: earlier,
          shareKey: parsed.legacy.shareKey,
        }
      : undefined;
  }
  if (!site.published) return undefined;
  const askedOrgUrl = loc.form === 'path' ? `${deps.readerUrl}/${loc.organization}` : `${new URL(deps.readerUrl).protocol}//${loc.organization}.${deps.readerDomain}`;
  const orgUrl = await organizationUrl(deps, site.organizationId);
  // a site at its own hostname is also served in the reader's forms, as it always was
  if (!site.hostname && askedOrgUrl !== orgUrl) return { moved: movedAnswer(site, siteUrlOf(site, orgUrl), parsed, trailingSlash), site, shareKey: parsed.shareKey };
  return { site, askedSiteUrl: siteUrlOf({ basename: site.basename }, askedOrgUrl) };
}

/** Whether the visitor may see the site: a share-link site only with an active key, a visitor-auth site only with a token its key verifies; NOT_FOUND otherwise. */
async function admitted(deps: SitesDeps, site: SiteRecord, shareKey: string | undefined, visitorToken: string | undefined) {
  let shareLinkId: string | undefined;
  if (site.visibility === 'share-link') {
    const link = shareKey ? await deps.shareLinks.activeShareLinkByKey(site._id, shareKey) : null;
    if (!link) throw NOT_PUBLISHED_HERE();
    shareLinkId = link._id;
  }
  const verified = await verifiedVisitor(deps, site, visitorToken);
  if (site.visibility === 'visitor-auth' && !verified) throw NOT_PUBLISHED_HERE();
  return { shareLinkId, verified };
}

/**
 * ResolvePublishedUrl, for anyone, with or without a caller (site tokens are refused by the registration):
 * the URL alone decides, with the visitor it names — never the caller's own rights — so a
 * renderer's answer is the visitor's. In order:
 * 1. the site: of the basename in the organization the URL names (under the reader's URL or at the
 *    organization's host), or of the hostname; published only. Another form of a site's address
 *    (the earlier `<reader>/<basename>`, a non-canonical organization part) is answered with a
 *    permanent redirect to the site's URL, the rest of the path kept;
 * 2. access: a share-link site only with an active key in the URL (`~share/<key>`); a visitor-auth
 *    site only with a visitor token its key verifies (public and unlisted: anyone);
 * 3. the section and site space the path leads to for the visitor's claims (locateInSite), the
 *    space's current revision (content's GetSpace, read by sites), the rest of the path as the page
 *    path;
 * 4. a live redirect of the path below the site (redirects.service) when nothing is found, or when
 *    the page path names no page of the revision;
 * 5. a site token for this audience (mintSiteToken): the share link, the verified visitor and the
 *    claims, expiring no later than the visitor token.
 * Anything not there for the visitor is NOT_FOUND, the same for every reason. `redirectOnError`
 * changes nothing: sites has no fallback URL or authentication backend to send a refused visitor to.
 * Reads only; no events. The share key, the visitor token and the minted token are never logged,
 * and the key is not echoed back (but in the permanent redirect of an address that carried it).
 */
export async function resolvePublishedUrl(deps: SitesDeps, req: pb.ResolvePublishedUrlRequest): Promise<pb.PublishedSiteContent> {
  return (await resolveUrl(deps, req.url, req.visitor)).reply;
}

/** What the resolver decided: its answer and, when it opened content (no redirect), what it was decided with. */
export interface Resolution {
  reply: pb.PublishedSiteContent;
  opened?: { site: SiteRecord; shown: ShownItems; visitor: ConditionVisitor; tokenId: string };
}

/** A share key the caller holds apart from the URL, as if the URL carried it (a key in the URL wins). */
function withShareKey(parsed: PublishedUrl, shareKey: string | undefined): PublishedUrl {
  if (!shareKey) return parsed;
  return {
    ...parsed,
    shareKey: parsed.shareKey ?? shareKey,
    ...(parsed.legacy ? { legacy: { ...parsed.legacy, shareKey: parsed.legacy.shareKey ?? shareKey } } : {}),
  };
}

/** The resolver (see resolvePublishedUrl), with the share key given apart from the URL or in it. */
export async function resolveUrl(deps: SitesDeps, url: string, visitorClaims: pb.VisitorClaims | undefined, shareKey?: string): Promise<Resolution> {
  if (url.length > 2048) throw invalid('url must be at most 2048 characters.');
  const asked = parsePublishedUrl(url, deps);
  if (!asked) throw NOT_PUBLISHED_HERE();
  const parsed = withShareKey(asked, shareKey);
  const found = await siteOf(deps, parsed, new URL(url).pathname.endsWith('/'));
  if (!found) throw NOT_PUBLISHED_HERE();
  // another form of the address: sent on only to a visitor who may see the site (a private site's
  // existence is not told by its old address either)
  if ('moved' in found) {
    await admitted(deps, found.site, found.shareKey, visitorClaims?.token);
    return { reply: found.moved };
  }
  const { site, askedSiteUrl } = found;

  const unsigned = visitorClaims?.unsignedClaims;
  const { shareLinkId, verified } = await admitted(deps, site, parsed.shareKey, visitorClaims?.token);
  const visitor = conditionVisitor(verified?.claims, unsigned);

  const segments = decodeSegments(parsed.segments);
  if (!segments) throw NOT_PUBLISHED_HERE();
  const shown = await loadShownItems(deps, site);
  const located = locateInSite({ site, ...shown }, segments, visitor);
  const space = located && (await publishedSpace(deps, site, located.siteSpace.spaceId));
  const pathname = segments.slice(located?.consumed ?? 0).join('/');
  if (!located || !space || pathname) {
    // The page tree is read only when a redirect could apply: a page that exists wins over it.
    const redirect = await redirectAnswer(deps, site, parsed.segments, shown);
    if (redirect && (!located || !space || !(await hasPage(deps, space, pathname)))) return { reply: redirect };
  }
  // a page path that names no page is the reader's to answer (a 404 with the site around it)
  if (!located || !space) throw NOT_PUBLISHED_HERE();

  // URLs in the form asked (under the reader, at the organization's host or at the hostname) for the paths; the canonical one is the site's
  const siteUrl = siteUrlOf(site, await organizationUrl(deps, site.organizationId));
  const defaults = { defaultSectionId: site.defaultSectionId, defaultSiteSpaceId: site.defaultSiteSpaceId, sections: new Map(shown.sections.map((s) => [s._id, s])) };
  const siteSpaceUrlAt = (base: string) => siteSpaceUrlOf({ ...defaults, siteUrl: base }, located.siteSpace) ?? base;
  const { token, claims } = await mintSiteToken(deps, site, {
    shareLinkId,
    visitor: { verified: !!verified, claims: visitor.claims },
    notAfter: verified?.expiresAt,
    content: { siteSpaceId: located.siteSpace._id, siteSectionId: located.section?._id, spaceId: space.id, spaceIds: audienceSpaceIds(shown, visitor) },
  });
  const reply: pb.PublishedSiteContent = {
    organizationId: site.organizationId,
    siteId: site._id,
    siteSectionId: located.section?._id,
    siteSectionGroupId: located.section?.sectionGroupId,
    siteSpaceId: located.siteSpace._id,
    spaceId: space.id,
    revisionId: space.revision,
    pathname,
    basePath: pathWithSlash(siteSpaceUrlAt(askedSiteUrl)),
    siteBasePath: pathWithSlash(askedSiteUrl),
    canonicalUrl: pageUrl(siteSpaceUrlAt(siteUrl), pathname),
    complete: true,
    apiToken: token,
    redirectPermanent: false,
  };
  return { reply, opened: { site, shown, visitor, tokenId: claims.tokenId } };
}

/**
 * The key the site's visitor tokens are signed with (the official SitePublishingAuth; admin action:
 * the key is a secret). Made on first read; `regenerate` replaces it, and visitor tokens signed
 * with the old one stop resolving at once (site tokens minted with them run out at their expiry).
 * Side effects: the key's write; no events.
 */
export async function visitorAuth(deps: SitesDeps, caller: Caller, req: pb.VisitorAuthRequest, regenerate: boolean): Promise<pb.VisitorAuth> {
  const { site } = await visibleSite(deps, caller, req.organizationId, req.siteId, 'admin');
  const now = nowOf(deps);
  const key = regenerate ? await deps.visitorKeys.regenerate(site.organizationId, site._id, now) : await deps.visitorKeys.getOrCreate(site.organizationId, site._id, now);
  return { privateKey: key, backend: 'custom' };
}
