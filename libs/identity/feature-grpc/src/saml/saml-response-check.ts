import { samlify } from './samlify-api';
import { normalizeEmail, SAML_CLOCK_SKEW_MS, samlRefusal, SamlRefusalReason } from '@bindery/identity/domain';
import { ConfiguredProvider, identityProviderOf, serviceProviderOf } from './saml-entities';

/** What a checked response says, read from the signed assertion only. */
export interface VerifiedAssertion {
  assertionId: string;
  /** the AuthnRequest it answers; absent for an IdP-initiated sign-in */
  inResponseTo?: string;
  /** until when the assertion could be presented: how long it is remembered against replay */
  notOnOrAfter: Date;
  email: string;
  displayName?: string;
}

/** The largest SAMLResponse read (base64, as posted). */
export const MAX_SAML_RESPONSE_CHARS = 256 * 1024;

const EMAIL_ATTRIBUTES = ['email', 'mail', 'emailaddress', 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress', 'urn:oid:0.9.2342.19200300.100.1.3'];
const NAME_ATTRIBUTES = ['displayname', 'name', 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/name', 'urn:oid:2.16.840.1.113730.3.1.241'];

/** samlify's rejections, by the reason class they fall in (anything else is `malformed`). */
const SAMLIFY_REASONS: Record<string, SamlRefusalReason> = {
  FAILED_TO_VERIFY_SIGNATURE: 'signature',
  ERR_POTENTIAL_WRAPPING_ATTACK: 'signature',
  ERROR_UNMATCH_CERTIFICATE_DECLARATION_IN_METADATA: 'signature',
  NO_SIGNATURE_REFERENCES: 'signature',
  ERR_UNMATCH_ISSUER: 'issuer',
  ERR_SUBJECT_UNCONFIRMED: 'expired',
  ERR_EXPIRED_SESSION: 'expired',
};

function reasonOf(err: unknown): SamlRefusalReason {
  const message = err instanceof Error ? err.message : String(err);
  if (message.startsWith('ERR_FAILED_STATUS')) return 'status';
  return SAMLIFY_REASONS[message] ?? 'malformed';
}

/** The response's XML, if it is base64 of a bounded size. */
function decoded(samlResponse: string): string {
  const compact = samlResponse.replace(/[\r\n\t ]/g, '');
  if (!compact || compact.length > MAX_SAML_RESPONSE_CHARS || !/^[A-Za-z0-9+/]+={0,2}$/.test(compact)) throw samlRefusal('malformed');
  return Buffer.from(compact, 'base64').toString('utf8');
}

/**
 * Elements named Assertion in the document, whatever their prefix. Counted on the text, so that a
 * second assertion anywhere (beside the signed one, inside it, in an extension) is seen even where
 * no parser would look; text that merely looks like one is counted too, and refused with it.
 */
function assertionCount(xml: string): number {
  return (xml.match(/<([A-Za-z_][\w.-]*:)?Assertion[\s/>]/g) ?? []).length;
}

const ASSERTION_FIELDS = [
  { key: 'assertion', localPath: ['Assertion'], attributes: ['ID'] },
  { key: 'issuer', localPath: ['Assertion', 'Issuer'], attributes: [] },
  { key: 'nameID', localPath: ['Assertion', 'Subject', 'NameID'], attributes: [] },
  {
    key: 'confirmation',
    localPath: ['Assertion', 'Subject', 'SubjectConfirmation', 'SubjectConfirmationData'],
    attributes: ['Recipient', 'InResponseTo', 'NotOnOrAfter', 'NotBefore'],
  },
  { key: 'conditions', localPath: ['Assertion', 'Conditions'], attributes: ['NotBefore', 'NotOnOrAfter'] },
  { key: 'audience', localPath: ['Assertion', 'Conditions', 'AudienceRestriction', 'Audience'], attributes: [] },
  { key: 'attributes', localPath: ['Assertion', 'AttributeStatement', 'Attribute'], index: ['Name'], attributePath: ['AttributeValue'], attributes: [] },
];

/** What the extractor reads of the signed assertion (all optional: a field may be missing). */
interface AssertionFields {
  assertion?: { id?: string } | string;
  issuer?: string;
  nameID?: unknown;
  confirmation?: { recipient?: string; inResponseTo?: string; notOnOrAfter?: string; notBefore?: string };
  conditions?: { notBefore?: string; notOnOrAfter?: string };
  audience?: unknown;
  attributes: Record<string, unknown>;
}

/** What samlify read of the response element (not signed unless the whole response is). */
interface ResponseFields {
  response?: { destination?: string | null; inResponseTo?: string | null };
}

const asList = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : typeof v === 'string' ? [v] : []);
const time = (v: unknown): number | undefined => (typeof v === 'string' && v ? Date.parse(v) : undefined);

function attribute(attributes: Record<string, unknown>, names: string[]): string | undefined {
  for (const [name, value] of Object.entries(attributes ?? {})) {
    if (names.includes(name.toLowerCase())) return asList(value)[0];
  }
  return undefined;
}

function emailOf(nameID: string | undefined, attributes: Record<string, unknown>): string {
  const candidate = attribute(attributes, EMAIL_ATTRIBUTES) ?? nameID;
  try {
    return normalizeEmail(candidate ?? '');
  } catch {
    throw samlRefusal('email');
  }
}

/**
 * Checks a SAMLResponse posted to `provider`'s ACS URL at `now`, and answers what its signed
 * assertion says. Refused (a `forbidden` naming the reason class) unless: the XML has no DOCTYPE
 * and holds exactly one assertion; it passes the SAML schemas; the provider says Success; the
 * assertion (or the whole response) is signed by the provider's certificate; the issuer is the
 * provider's entity id; the audience is this instance's entity id for the provider; the recipient
 * (and the response's Destination, when given) is this provider's ACS URL; `now` is within
 * NotBefore/NotOnOrAfter, give or take SAML_CLOCK_SKEW_MS. InResponseTo and replay are the
 * caller's to check (they need storage).
 */
export async function verifySamlResponse(input: { provider: ConfiguredProvider; publicUrl: string; samlResponse: string; now: Date }): Promise<VerifiedAssertion> {
  const xml = decoded(input.samlResponse);
  // No document type: nothing to declare entities with (XXE, entity expansion).
  if (/<!\s*(DOCTYPE|ENTITY)/i.test(xml)) throw samlRefusal('malformed');
  // One assertion, and it must be the signed one (signature wrapping puts a second one in).
  if (assertionCount(xml) !== 1) throw samlRefusal('signature');

  const { entity: sp, urls } = serviceProviderOf(input.publicUrl, input.provider._id);
  const idp = identityProviderOf(input.provider);
  let parsed: Awaited<ReturnType<typeof sp.parseLoginResponse>>;
  try {
    parsed = await sp.parseLoginResponse(idp, 'post', { body: { SAMLResponse: Buffer.from(xml, 'utf8').toString('base64') } });
  } catch (err) {
    throw samlRefusal(reasonOf(err));
  }
  // The assertion whose signature verified (or that the verified response holds): the only source
  // of what follows. Nothing is read from the rest of the document but the Destination.
  let signed: string | null;
  try {
    [, signed] = samlify.SamlLib.verifySignature(xml, { metadata: idp.entityMeta, signatureAlgorithm: idp.entitySetting.requestSignatureAlgorithm });
  } catch {
    throw samlRefusal('signature');
  }
  if (!signed) throw samlRefusal('signature');
  const a = samlify.Extractor.extract(signed, ASSERTION_FIELDS) as AssertionFields;

  if (a.issuer !== input.provider.entityID) throw samlRefusal('issuer');
  if (!asList(a.audience).includes(urls.entityID)) throw samlRefusal('audience');
  const response = (parsed.extract as unknown as ResponseFields).response;
  const destination = response?.destination;
  if (a.confirmation?.recipient !== urls.acsURL || (destination !== undefined && destination !== null && destination !== urls.acsURL)) throw samlRefusal('recipient');

  const now = input.now.getTime();
  const notBefore = [time(a.conditions?.notBefore), time(a.confirmation?.notBefore)].filter((t): t is number => t !== undefined);
  const notOnOrAfter = [time(a.conditions?.notOnOrAfter), time(a.confirmation?.notOnOrAfter)].filter((t): t is number => t !== undefined);
  if (!notOnOrAfter.length || [...notBefore, ...notOnOrAfter].some(Number.isNaN)) throw samlRefusal('expired');
  if (notBefore.some((t) => now < t - SAML_CLOCK_SKEW_MS) || notOnOrAfter.some((t) => now >= t + SAML_CLOCK_SKEW_MS)) throw samlRefusal('expired');

  const responseInResponseTo = response?.inResponseTo;
  const inResponseTo: string | undefined = a.confirmation?.inResponseTo || undefined;
  if (responseInResponseTo && responseInResponseTo !== inResponseTo) throw samlRefusal('in_response_to');

  const assertionId = typeof a.assertion === 'string' ? a.assertion : a.assertion?.id;
  if (typeof assertionId !== 'string' || !assertionId) throw samlRefusal('malformed');
  const displayName = attribute(a.attributes, NAME_ATTRIBUTES)?.trim();
  return {
    assertionId,
    ...(inResponseTo ? { inResponseTo } : {}),
    notOnOrAfter: new Date(Math.max(...notOnOrAfter) + SAML_CLOCK_SKEW_MS),
    email: emailOf(typeof a.nameID === 'string' ? a.nameID : undefined, a.attributes),
    ...(displayName ? { displayName } : {}),
  };
}
