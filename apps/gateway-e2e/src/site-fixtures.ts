import { createHmac } from 'node:crypto';
import type { Client } from './http-client';

/**
 * Sites for end-to-end tests, made only through the API: a published site of some spaces, share
 * links, and site tokens as a renderer gets them — by resolving a published URL
 * (`POST /v1/urls/published`), through a share link for a share-link site.
 */
export interface CreatedSite {
  id: string;
  organizationId: string;
  /** its published URL */
  url: string;
  /** its site spaces, in order (named after their spaces, at the root) */
  siteSpaceIds: string[];
}

/** The ids of the site's site spaces, in their order (listSiteSpaces). */
export async function siteSpaceIdsOf(admin: Client, organizationId: string, siteId: string): Promise<string[]> {
  const res = await admin.get(`/v1/orgs/${organizationId}/sites/${siteId}/site-spaces?limit=1000`);
  if (res.status !== 200) throw new Error(`list site spaces: ${res.status} ${JSON.stringify(res.body)}`);
  return (res.body.items as Array<{ id: string }>).map((ss) => ss.id);
}

/** A site of these spaces made and published through the API by `admin` (site spaces at the root, named after their spaces). */
export async function createPublishedSite(admin: Client, organizationId: string, spaceIds: string[], visibility = 'share-link'): Promise<CreatedSite> {
  const created = await admin.post(`/v1/orgs/${organizationId}/sites`, { title: 'Docs', visibility, spaces: spaceIds });
  if (created.status !== 201) throw new Error(`create site: ${created.status} ${JSON.stringify(created.body)}`);
  const published = await admin.post(`/v1/orgs/${organizationId}/sites/${created.body.id}/publish`);
  if (published.status !== 200) throw new Error(`publish site: ${published.status} ${JSON.stringify(published.body)}`);
  return { id: created.body.id, organizationId, url: published.body.urls.published, siteSpaceIds: await siteSpaceIdsOf(admin, organizationId, created.body.id) };
}

/** An active share link of the site made through the API by `admin`; answers its id and key. */
export async function createShareLink(admin: Client, organizationId: string, siteId: string): Promise<{ id: string; key: string }> {
  const res = await admin.post(`/v1/orgs/${organizationId}/sites/${siteId}/share-links`, { name: 'Preview' });
  if (res.status !== 201) throw new Error(`create share link: ${res.status} ${JSON.stringify(res.body)}`);
  return { id: res.body.id, key: decodeURIComponent(res.body.urls.published.split('/~share/')[1]) };
}

/** The site's URL with the share segment of the key (the form share links hand out), then `rest`. */
export function shareUrl(site: Pick<CreatedSite, 'url'>, key: string, rest = ''): string {
  return `${site.url}/~share/${encodeURIComponent(key)}${rest}`;
}

/**
 * A site token of the site, as a renderer gets one: `client` (anyone signed in) resolves the site's
 * URL — through the share key when given (a share-link site needs one).
 */
export async function siteToken(client: Client, site: Pick<CreatedSite, 'url'>, shareKey?: string): Promise<string> {
  const res = await client.post('/v1/urls/published', { url: shareKey ? shareUrl(site, shareKey) : site.url });
  if (res.status !== 200 || typeof res.body.apiToken !== 'string') throw new Error(`resolve ${site.url}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.apiToken;
}

/** A visitor token as a site owner's backend signs it: an HS256 JWT of the claims with the site's key. */
export function visitorToken(claims: Record<string, unknown>, key: string): string {
  const part = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
  const signed = `${part({ alg: 'HS256', typ: 'JWT' })}.${part(claims)}`;
  return `${signed}.${createHmac('sha256', key).update(signed).digest('base64url')}`;
}
