import { forbidden, invalid } from '@bindery/platform/errors';
import { hasLengthWithin, TEXT_LIMITS } from '@bindery/shared/text';
import { emailDomainOf } from './emails';

const DOMAIN = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
const HOSTNAME = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/;

export function validTitle(title: string): string {
  const t = title.trim();
  const { min, max } = TEXT_LIMITS.organizationTitle;
  if (!hasLengthWithin(t, min, max)) throw invalid(`title must have ${min} to ${max} characters.`);
  return t;
}

export function normalizeEmailDomains(domains: string[]): string[] {
  const out = [...new Set(domains.map((d) => d.trim().toLowerCase()))];
  for (const d of out) if (!DOMAIN.test(d)) throw invalid(`emailDomains: "${d}" is not a domain name.`);
  if (out.length > 50) throw invalid('emailDomains: at most 50 domains.');
  return out;
}

/** Who claims e-mail domains for an organization: the user acting, with their (verified) address. */
export interface DomainClaimant {
  email: string;
  isInstanceAdmin: boolean;
}

/**
 * A domain in `emailDomains` lets every user with an address in it join the organization on their
 * own, so an organization admin may add only the domain of their own address; an instance
 * administrator may add any (they approve claims on behalf of others). Domains the organization
 * already has stay without a new check (an admin may keep or drop them). Addresses are set by the
 * instance administrator (there is no self sign-up), so the claimant's address is a verified one.
 * Refused: 403 naming the domains. Uniqueness across organizations is the database's (409).
 */
export function assertMayClaimEmailDomains(domains: string[], current: string[], claimant: DomainClaimant): void {
  if (claimant.isInstanceAdmin) return;
  const own = emailDomainOf(claimant.email.toLowerCase());
  const refused = domains.filter((d) => d !== own && !current.includes(d));
  if (!refused.length) return;
  const shown =
    refused
      .slice(0, 5)
      .map((d) => `"${d}"`)
      .join(', ') + (refused.length > 5 ? ` and ${refused.length - 5} more` : '');
  throw forbidden(
    `emailDomains: ${shown} ${refused.length === 1 ? 'is not' : 'are not'} the domain of your e-mail address; ` +
      "an organization admin may claim only their own address's domain, other domains need an instance administrator.",
  );
}

export function validHostname(hostname: string): string {
  const h = hostname.toLowerCase();
  if (h.length < 3 || h.length > 32 || !HOSTNAME.test(h)) {
    throw invalid('hostname must have 3 to 32 lower-case letters, digits or inner hyphens.');
  }
  return h;
}
