import { invalid } from '@bindery/platform/errors';

const DOMAIN = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
const HOSTNAME = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/;

export function validTitle(title: string): string {
  const t = title.trim();
  if (t.length < 2 || t.length > 255) throw invalid('title must have 2 to 255 characters.');
  return t;
}

export function normalizeEmailDomains(domains: string[]): string[] {
  const out = [...new Set(domains.map((d) => d.trim().toLowerCase()))];
  for (const d of out) if (!DOMAIN.test(d)) throw invalid(`emailDomains: "${d}" is not a domain name.`);
  if (out.length > 50) throw invalid('emailDomains: at most 50 domains.');
  return out;
}

export function validHostname(hostname: string): string {
  const h = hostname.toLowerCase();
  if (h.length < 3 || h.length > 32 || !HOSTNAME.test(h)) {
    throw invalid('hostname must have 3 to 32 lower-case letters, digits or inner hyphens.');
  }
  return h;
}
