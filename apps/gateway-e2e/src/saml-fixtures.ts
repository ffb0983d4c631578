import { execFileSync } from 'node:child_process';
import { SystemUnderTest } from '@bindery/shared/testing';
import { TestUser } from './fixtures';
import { http } from './http-client';

/** A real self-signed certificate, made now (the private key is thrown away at once). */
export function selfSignedCertificate(cn = 'idp.test'): string {
  return execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', '/dev/null', '-subj', `/CN=${cn}`, '-days', '2'], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  });
}

/** The base64 lines of a PEM certificate: what must never show up in logs or events. */
export function certificateLines(pem: string): string[] {
  return pem.split('\n').filter((l) => l && !l.startsWith('-----'));
}

/** A team of the organization, made through the teams routes by an admin. */
export async function createTeam(sut: SystemUnderTest, admin: TestUser, orgId: string, title: string, members: string[] = []): Promise<string> {
  const res = await http(sut.baseUrl, admin.token).put(`/v1/orgs/${orgId}/teams`, { title, ...(members.length ? { members } : {}) });
  if (res.status !== 201) throw new Error(`create team: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.id;
}
