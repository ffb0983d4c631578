import { assertMatchesSpec } from '@bindery/shared/testing';

const PATH = '/orgs/{organizationId}/sites/{siteId}/published';

/**
 * Checks a published site (getPublishedContentSite) against 0.202.0, the release GitBook's renderer
 * reads it with, and 0.130.0. Their one conflict, `themes.default: system` (0.202.0 only, and sites'
 * default), is put aside for 0.130.0: 0.202.0 wins (docs/site-tokens.md).
 */
export function assertPublishedSite(body: unknown): void {
  assertMatchesSpec('0.202.0', 'get', PATH, 200, body);
  assertMatchesSpec('0.130.0', 'get', PATH, 200, JSON.parse(JSON.stringify(body).replace(/"default":"system"/g, '"default":"light"')));
}
