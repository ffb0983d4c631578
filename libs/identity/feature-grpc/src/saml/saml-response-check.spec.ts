import { samlRefusalReason, samlServiceProvider } from '@bindery/identity/domain';
import { TestIdp } from '@bindery/shared/testing';
import { ConfiguredProvider } from './saml-entities';
import { verifySamlResponse } from './saml-response-check';

/**
 * The checks of a SAMLResponse against responses made by a real identity provider (samlify's, with
 * its own key): the happy path, then one refusal per attack, each a response the provider signed
 * and then changed the way the attack does.
 */
describe('SAML response checks', () => {
  const publicUrl = 'https://docs.example.test';
  let idp: TestIdp;
  let otherKey: TestIdp;
  let provider: ConfiguredProvider;
  let sp: { entityID: string; acsURL: string };

  beforeAll(async () => {
    idp = await TestIdp.create('https://idp.example.test/metadata');
    otherKey = await TestIdp.create('https://idp.example.test/metadata');
    provider = {
      _id: 'prov1',
      organizationId: 'org1',
      label: 'IdP',
      entityID: idp.entityID,
      certificate: idp.certificate,
      ssoURL: idp.ssoURL,
      defaultRole: 'read',
      createdAt: '2026-01-01T00:00:00.000Z',
      createdBy: 'u',
      updatedAt: '2026-01-01T00:00:00.000Z',
    };
    const urls = samlServiceProvider(publicUrl, provider._id);
    sp = { entityID: urls.entityID, acsURL: urls.acsURL };
  });

  const xmlOf = (b64: string) => Buffer.from(b64, 'base64').toString('utf8');
  const b64Of = (xml: string) => Buffer.from(xml, 'utf8').toString('base64');
  const check = (samlResponse: string, now = new Date()) => verifySamlResponse({ provider, publicUrl, samlResponse, now });
  const refusal = (samlResponse: string, now?: Date) =>
    check(samlResponse, now).then(
      () => 'accepted',
      (err) => samlRefusalReason(err) ?? `other: ${err}`,
    );

  test('a response signed by the provider is read from its signed assertion', async () => {
    const r = await check(await idp.respond(sp, { email: 'Alice@Corp.Example' }, { inResponseTo: '_req1' }));
    expect(r).toMatchObject({ email: 'alice@corp.example', inResponseTo: '_req1' });
    expect(r.assertionId).toMatch(/^_/);
    expect(r.notOnOrAfter.getTime()).toBeGreaterThan(Date.now());
    const unsolicited = await check(await idp.respond(sp, { email: 'bob@corp.example' }));
    expect(unsolicited.inResponseTo).toBeUndefined();
  });

  test('tampered: an attribute changed after signing', async () => {
    const xml = xmlOf(await idp.respond(sp, { email: 'alice@corp.example' }));
    expect(xml).toContain('>alice@corp.example</saml:NameID>');
    expect(await refusal(b64Of(xml.replace('>alice@corp.example</saml:NameID>', '>admin@corp.example</saml:NameID>')))).toBe('signature');
  });

  test('expired: NotOnOrAfter passed (beyond the 2 minutes of skew), and not yet valid', async () => {
    const response = await idp.respond(sp, { email: 'alice@corp.example' });
    const inMinutes = (m: number) => new Date(Date.now() + m * 60_000);
    // samlify's template: NotOnOrAfter 5 minutes after issue
    expect(await refusal(response, inMinutes(6))).toBe('accepted');
    expect(await refusal(response, inMinutes(8))).toBe('expired');
    expect(await refusal(response, inMinutes(-3))).toBe('expired');
  });

  test('wrong audience: made for another service provider', async () => {
    expect(await refusal(await idp.respond({ ...sp, entityID: 'https://other.example.test/sp' }, { email: 'alice@corp.example' }))).toBe('audience');
  });

  test('wrong recipient: made for another ACS URL', async () => {
    expect(await refusal(await idp.respond({ ...sp, acsURL: 'https://other.example.test/acs' }, { email: 'alice@corp.example' }))).toBe('recipient');
  });

  test('unsigned', async () => {
    const xml = xmlOf(await idp.respond(sp, { email: 'alice@corp.example' }, { signed: false }));
    expect(xml).not.toContain('Signature');
    expect(xml).toContain('>alice@corp.example</saml:NameID>');
    expect(await refusal(b64Of(xml))).toBe('signature');
  });

  test('signed by another key (same entity id)', async () => {
    expect(await refusal(await otherKey.respond(sp, { email: 'alice@corp.example' }))).toBe('signature');
  });

  /** The signed assertion of a response, and an unsigned copy naming someone else. */
  const wrapped = async () => {
    const xml = xmlOf(await idp.respond(sp, { email: 'alice@corp.example' }));
    const assertion = /<saml:Assertion[\s\S]*<\/saml:Assertion>/.exec(xml)![0];
    const evil = assertion
      .replace(/<ds:Signature[\s\S]*<\/ds:Signature>/, '')
      .replace(/ ID="[^"]+"/, ' ID="_evil"')
      .replace('>alice@corp.example</saml:NameID>', '>admin@corp.example</saml:NameID>');
    return { xml, assertion, evil };
  };

  test('signature wrapping: an unsigned assertion beside the signed one (before it)', async () => {
    const { xml, assertion, evil } = await wrapped();
    expect(await refusal(b64Of(xml.replace(assertion, evil + assertion)))).toBe('signature');
  });

  test('signature wrapping: an unsigned assertion beside the signed one (after it)', async () => {
    const { xml, assertion, evil } = await wrapped();
    expect(await refusal(b64Of(xml.replace(assertion, assertion + evil)))).toBe('signature');
  });

  test('signature wrapping: the signed assertion moved inside the unsigned one (its Advice)', async () => {
    const { xml, assertion, evil } = await wrapped();
    const nested = evil.replace('</saml:Conditions>', `</saml:Conditions><saml:Advice>${assertion}</saml:Advice>`);
    expect(await refusal(b64Of(xml.replace(assertion, nested)))).toBe('signature');
  });

  test('signature wrapping: an unsigned assertion inside the signed one (its SubjectConfirmationData)', async () => {
    const { xml, evil } = await wrapped();
    const inside = xml.replace(/(<saml:SubjectConfirmationData[^>]*?)\/>/, `$1>${evil}</saml:SubjectConfirmationData>`);
    expect(inside).toContain('_evil');
    expect(await refusal(b64Of(inside))).toBe('signature');
  });

  test('a DOCTYPE or an entity in the XML', async () => {
    const xml = xmlOf(await idp.respond(sp, { email: 'alice@corp.example' }));
    expect(await refusal(b64Of(`<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]>${xml}`))).toBe('malformed');
    expect(await refusal(b64Of(`<!DOCTYPE samlp:Response>${xml}`))).toBe('malformed');
  });

  test('not a SAML response at all', async () => {
    expect(await refusal('not base64!')).toBe('malformed');
    expect(await refusal(b64Of('<hello/>'))).toBe('signature');
    expect(await refusal(b64Of('<a><saml:Assertion xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion"/></a>'))).toBe('malformed');
  });
});
