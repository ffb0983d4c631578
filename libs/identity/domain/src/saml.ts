import { X509Certificate } from 'node:crypto';
import { invalid } from '@bindery/platform/errors';
import { characterCount } from '@bindery/shared/text';
import { assertCanAdminister, assertCanView, Standing } from './organization-policy';
import { RoleOrGuest } from './roles';

/**
 * A SAML identity provider of an organization. `certificate` is the provider's public signing
 * certificate (PEM), never a private key: the rules below refuse anything else.
 */
export interface SamlProviderRecord {
  _id: string;
  organizationId: string;
  label: string;
  entityID?: string;
  certificate?: string;
  ssoURL?: string;
  /** a team of the same organization that members joining through this provider are added to */
  defaultTeam?: string;
  defaultRole: RoleOrGuest;
  createdAt: string;
  createdBy: string;
  updatedAt: string;
  /** Soft deletion: the document may still hold events the relay has not sent. */
  deletedAt?: string;
}

/** The spec's SAMLProviderStatus: usable for sign-in, or still missing settings. */
export type SamlProviderStatus = 'active' | 'pending';

export function samlProviderStatus(p: Pick<SamlProviderRecord, 'entityID' | 'certificate' | 'ssoURL'>): SamlProviderStatus {
  return p.entityID && p.certificate && p.ssoURL ? 'active' : 'pending';
}

/** Only organization admins see and manage providers (403 for other members, 404 for strangers). */
export function assertCanManageSaml(standing: Standing | undefined): asserts standing is Standing {
  assertCanAdminister(standing);
}

/** The sign-in choices of an organization: any member, guests included; strangers get 404. */
export function assertCanListSsoLogins(standing: Standing | undefined): asserts standing is Standing {
  assertCanView(standing);
}

export function validSamlLabel(label: string): string {
  const l = label.trim();
  if (characterCount(l) < 1 || characterCount(l) > 30) throw invalid('label must have 1 to 30 characters.');
  return l;
}

export function validEntityID(entityID: string): string {
  if (characterCount(entityID) > 1024) throw invalid('entityID must have at most 1024 characters.');
  return entityID;
}

export function validSsoURL(url: string): string {
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  if (!parsed || (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') || url.length > 2048) {
    throw invalid('ssoURL must be an http or https URL of at most 2048 characters.');
  }
  return url;
}

const ONE_PEM_CERTIFICATE = /^\s*-----BEGIN CERTIFICATE-----\r?\n[A-Za-z0-9+/=\r\n]+-----END CERTIFICATE-----\s*$/;

/**
 * One X.509 certificate in PEM form, kept as sent. Exactly one block is accepted so that nothing
 * else pasted with it (a private key above all) is ever stored or shown again. The messages never
 * quote the value.
 */
export function validCertificate(pem: string): string {
  const problem = 'certificate must be one X.509 certificate in PEM form (-----BEGIN CERTIFICATE-----), and nothing else.';
  if (pem.length > 10000 || !ONE_PEM_CERTIFICATE.test(pem)) throw invalid(problem);
  try {
    new X509Certificate(pem);
  } catch {
    throw invalid(problem);
  }
  return pem;
}

/**
 * This instance's side of the exchange with a provider, under the public base URL: its entity id is
 * its metadata's URL, the provider posts to the ACS URL, and sign-in starts at the login URL.
 */
export function samlServiceProvider(publicUrl: string, providerId: string) {
  const base = `${publicUrl.replace(/\/+$/, '')}/auth/saml/${encodeURIComponent(providerId)}`;
  return { acsURL: `${base}/acs`, startURL: `${base}/login`, entityID: `${base}/metadata`, metadataURL: `${base}/metadata` };
}
