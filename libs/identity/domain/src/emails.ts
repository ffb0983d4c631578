import { invalid } from '@bindery/platform/errors';

// Deliberately simple: one @, a dot in the domain, no spaces. Delivery is what really validates.
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function normalizeEmail(email: string): string {
  const e = email.trim().toLowerCase();
  if (!EMAIL.test(e) || e.length > 254) throw invalid(`"${email}" is not an e-mail address.`);
  return e;
}

export function emailDomainOf(email: string): string {
  return email.slice(email.lastIndexOf('@') + 1);
}
