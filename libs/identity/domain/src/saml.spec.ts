import { execFileSync } from 'node:child_process';
import { DomainError } from '@bindery/platform/errors';
import { Standing } from './organization-policy';
import { RoleOrGuest } from './roles';
import { assertCanListSsoLogins, assertCanManageSaml, samlProviderStatus, samlServiceProvider, validCertificate, validEntityID, validSamlLabel, validSsoURL } from './saml';

const as = (role: RoleOrGuest): Standing => ({ role, ownsTeam: false });

function selfSignedPem(): string {
  return execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', '/dev/null', '-subj', '/CN=idp.test', '-days', '2'], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  });
}

describe('SAML providers', () => {
  // [standing, manage, list logins]: 'ok' or the error kind
  const table: Array<[string, Standing | undefined, string, string]> = [
    ['stranger', undefined, 'not_found', 'not_found'],
    ['guest', as(null), 'forbidden', 'ok'],
    ['read', as('read'), 'forbidden', 'ok'],
    ['comment', as('comment'), 'forbidden', 'ok'],
    ['edit', as('edit'), 'forbidden', 'ok'],
    ['review', as('review'), 'forbidden', 'ok'],
    ['create', as('create'), 'forbidden', 'ok'],
    ['admin', as('admin'), 'ok', 'ok'],
  ];
  const outcome = (f: () => void) => {
    try {
      f();
      return 'ok';
    } catch (err) {
      return (err as DomainError).kind;
    }
  };

  it.each(table)('lets a %s manage providers / list logins as written', (_name, standing, manage, logins) => {
    expect([outcome(() => assertCanManageSaml(standing)), outcome(() => assertCanListSsoLogins(standing))]).toEqual([manage, logins]);
  });

  it.each([
    [{}, 'pending'],
    [{ entityID: 'e', certificate: 'c' }, 'pending'],
    [{ entityID: '', certificate: 'c', ssoURL: 'https://idp' }, 'pending'],
    [{ entityID: 'e', certificate: 'c', ssoURL: 'https://idp' }, 'active'],
  ])('derives status from the settings: %j → %s', (settings, status) => {
    expect(samlProviderStatus(settings)).toBe(status);
  });

  it('checks labels, entity ids and sign-in URLs', () => {
    expect(validSamlLabel('  Okta ')).toBe('Okta');
    expect(() => validSamlLabel('   ')).toThrow('label');
    expect(() => validSamlLabel('x'.repeat(31))).toThrow('label');
    expect(validEntityID('x'.repeat(1024))).toHaveLength(1024);
    expect(() => validEntityID('x'.repeat(1025))).toThrow('entityID');
    expect(validSsoURL('https://idp.example/sso')).toBe('https://idp.example/sso');
    for (const bad of ['not a url', 'ftp://idp.example/sso', 'javascript:alert(1)', `https://idp.example/${'x'.repeat(2048)}`]) {
      expect(() => validSsoURL(bad)).toThrow('ssoURL');
    }
  });

  it('accepts exactly one PEM certificate, kept as sent, and never quotes what it refuses', () => {
    const pem = selfSignedPem();
    expect(validCertificate(pem)).toBe(pem);
    const body = pem.split('\n').slice(1, -2).join('\n');
    const refused = [
      'not a certificate',
      body,
      // truncated: the DER structure no longer parses
      pem
        .split('\n')
        .filter((_line, i) => i !== 3)
        .join('\n'),
      `${pem}-----BEGIN PRIVATE KEY-----\nMIIB\n-----END PRIVATE KEY-----\n`,
      pem + pem,
      pem.replace('CERTIFICATE', 'PUBLIC KEY'),
    ];
    for (const bad of refused) {
      let message = '';
      try {
        validCertificate(bad);
      } catch (err) {
        message = (err as Error).message;
      }
      expect(message).toContain('certificate');
      expect(message).not.toContain(body.slice(0, 20));
    }
  });

  it('builds the service provider URLs under the public base', () => {
    expect(samlServiceProvider('https://docs.example/', 'p1')).toEqual({
      acsURL: 'https://docs.example/auth/saml/p1/acs',
      startURL: 'https://docs.example/auth/saml/p1/login',
      entityID: 'https://docs.example/auth/saml/p1/metadata',
      metadataURL: 'https://docs.example/auth/saml/p1/metadata',
    });
  });
});
