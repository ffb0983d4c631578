import { invalid } from '@bindery/platform/errors';
import { characterCount, hasLengthWithin } from '@bindery/shared/text';
import type { SiteAction } from './site-policy';
import { AgentsContext, SITE_TYPES, SITE_VISIBILITIES, SiteType, SiteVisibility } from './site-records';

/** The title a site is given when its creator names none. */
export const DEFAULT_SITE_TITLE = 'Untitled site';

export const SITE_TITLE = { min: 2, max: 128 } as const;
export const SHARE_LINK_NAME = { min: 0, max: 50 } as const;
export const AGENTS_CONTEXTS: readonly AgentsContext[] = ['excluded', 'included'];

/** The official SiteProxyOrigin: a host with a path below it, without a scheme (e.g. company.com/docs). */
export const PROXY_ORIGIN_PATTERN = '^([\\w-]+\\.)*[\\w-]+\\.[a-zA-Z]{2,}(\\/[\\w-]+)+$';
/** The official SiteHostname: lower-case DNS labels, at least three of them (e.g. docs.company.com). */
export const HOSTNAME_PATTERN = '^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?[.]){2,}[a-z0-9][a-z0-9-]{0,61}[a-z0-9]$';

/** A site's title, trimmed: 2 to 128 characters. */
export function checkSiteTitle(title: string): string {
  const t = title.trim();
  if (!hasLengthWithin(t, SITE_TITLE.min, SITE_TITLE.max)) throw invalid(`title must have ${SITE_TITLE.min} to ${SITE_TITLE.max} characters.`);
  return t;
}

export function checkSiteType(type: string): SiteType {
  if (!(SITE_TYPES as readonly string[]).includes(type)) throw invalid(`type must be one of ${SITE_TYPES.join(', ')}.`);
  return type as SiteType;
}

export function checkVisibility(visibility: string): SiteVisibility {
  if (!(SITE_VISIBILITIES as readonly string[]).includes(visibility)) throw invalid(`visibility must be one of ${SITE_VISIBILITIES.join(', ')}.`);
  return visibility as SiteVisibility;
}

export function checkAgentsContext(value: string): AgentsContext {
  if (!AGENTS_CONTEXTS.includes(value as AgentsContext)) throw invalid(`agentsContext must be one of ${AGENTS_CONTEXTS.join(', ')}.`);
  return value as AgentsContext;
}

export function checkProxyOrigin(origin: string): string {
  if (origin.length > 512 || !new RegExp(PROXY_ORIGIN_PATTERN).test(origin)) throw invalid('proxy must be a host and a path below it, without a scheme (e.g. company.com/docs).');
  return origin;
}

export function checkHostname(hostname: string): string {
  if (hostname.length > 512 || !new RegExp(HOSTNAME_PATTERN).test(hostname))
    throw invalid('hostname must be a lower-case host name of at least three labels (e.g. docs.company.com).');
  return hostname;
}

/** A share link's name: up to 50 characters (an empty name is allowed, as officially). */
export function checkShareLinkName(name: string): string {
  if (characterCount(name) > SHARE_LINK_NAME.max) throw invalid(`name must have at most ${SHARE_LINK_NAME.max} characters.`);
  return name;
}

/** The settings of a site an update may change, by the action each needs (see site-policy.ts). */
const SETTING_ACTIONS = {
  title: 'edit',
  defaultSiteSpace: 'edit',
  defaultSiteSection: 'edit',
  visibility: 'admin',
  basename: 'admin',
  hostname: 'admin',
  proxy: 'admin',
  adaptiveContent: 'admin',
  agentsContext: 'admin',
} as const satisfies Record<string, SiteAction>;

export type SiteSetting = keyof typeof SETTING_ACTIONS;

/**
 * The action an update of these settings needs: admin when it touches the site's address, access
 * or adaptive content, edit otherwise (an update that changes nothing needs edit too).
 */
export function updateActionOf(settings: SiteSetting[]): SiteAction {
  return settings.some((s) => SETTING_ACTIONS[s] === 'admin') ? 'admin' : 'edit';
}
