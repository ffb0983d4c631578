import { randomBytes } from 'node:crypto';
import { sharedSystem, SystemUnderTest, TestIdp } from '@bindery/shared/testing';
import { organizationWithEveryRole, RoleName } from './fixtures';
import { http } from './http-client';
import { Caller, CALLERS, callerClients, Client, matrixMismatches, MatrixRow } from './matrix';

interface Ctx {
  orgId: string;
  providerId: string;
  baseUrl: string;
}

/** A request as a browser sends it to the sign-in routes: no redirect followed, a form when posting. */
async function raw(client: Client, x: Ctx, method: 'GET' | 'POST', path: string, form?: Record<string, string>) {
  // the caller's own credentials go along: the sign-in routes answer the same whoever sends them
  const headers: Record<string, string> = { accept: 'application/json', ...client.credentials };
  const res = await fetch(`${x.baseUrl}${path}`, {
    method,
    redirect: 'manual',
    headers: form ? { ...headers, 'content-type': 'application/x-www-form-urlencoded' } : headers,
    body: form ? new URLSearchParams(form) : undefined,
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // XML or empty
  }
  return { status: res.status, body };
}

// The sign-in routes × each kind of caller: public by nature (a browser has no session yet), so every
// caller gets the same answer; a bearer token neither helps nor hurts.
//                                                                                                   admin create review edit comment read guest stranger bad none
const ROUTES: Array<MatrixRow<Ctx>> = [
  { name: 'GET /auth/saml/{id}/metadata', call: (c, x) => raw(c, x, 'GET', `/auth/saml/${x.providerId}/metadata`), expect: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200] },
  { name: 'GET /auth/saml/{id}/login', call: (c, x) => raw(c, x, 'GET', `/auth/saml/${x.providerId}/login`), expect: [302, 302, 302, 302, 302, 302, 302, 302, 302, 302] },
  {
    name: 'POST /auth/saml/{id}/acs (no response)',
    call: (c, x) => raw(c, x, 'POST', `/auth/saml/${x.providerId}/acs`, {}),
    expect: [400, 400, 400, 400, 400, 400, 400, 400, 400, 400],
  },
  {
    name: 'POST /auth/saml/{id}/acs (not signed by the provider)',
    call: (c, x) => raw(c, x, 'POST', `/auth/saml/${x.providerId}/acs`, { SAMLResponse: Buffer.from('<samlp:Response/>').toString('base64') }),
    expect: [403, 403, 403, 403, 403, 403, 403, 403, 403, 403],
  },
  { name: 'GET /auth/saml/{unknown}/metadata', call: (c, x) => raw(c, x, 'GET', '/auth/saml/never-was/metadata'), expect: [404, 404, 404, 404, 404, 404, 404, 404, 404, 404] },
  { name: 'POST /auth/logout (no session)', call: (c, x) => raw(c, x, 'POST', '/auth/logout', {}), expect: [303, 303, 303, 303, 303, 303, 303, 303, 303, 303] },
];

/** Callers by session cookie: each role's member signed in through the provider, a forged cookie, none. */
type SessionCaller = RoleName | 'badCookie' | 'noCookie';
const SESSION_CALLERS: SessionCaller[] = ['admin', 'create', 'review', 'edit', 'comment', 'read', 'guest', 'badCookie', 'noCookie'];

// The same organization routes by cookie: each member's session is allowed exactly what their token is
// (the rows of saml-authorization.e2e.spec.ts and members), and a state change needs this origin.
//                                                                                                   admin create review edit comment read guest bad none
const BY_SESSION: Array<MatrixRow<Ctx, SessionCaller>> = [
  { name: 'GET /v1/orgs/{orgId}/saml', call: (c, x) => c.get(`/v1/orgs/${x.orgId}/saml`), expect: [200, 403, 403, 403, 403, 403, 403, 401, 401] },
  { name: 'GET /v1/orgs/{orgId}/sso', call: (c, x) => c.get(`/v1/orgs/${x.orgId}/sso`), expect: [200, 200, 200, 200, 200, 200, 200, 401, 401] },
  {
    name: 'POST /v1/orgs/{orgId}/saml (same origin)',
    call: (c, x) => c.post(`/v1/orgs/${x.orgId}/saml`, { label: 'By cookie' }, { origin: x.baseUrl }),
    expect: [201, 403, 403, 403, 403, 403, 403, 401, 401],
  },
  {
    name: 'POST /v1/orgs/{orgId}/saml (another origin)',
    call: (c, x) => c.post(`/v1/orgs/${x.orgId}/saml`, { label: 'Forged' }, { origin: 'https://evil.example' }),
    expect: [403, 403, 403, 403, 403, 403, 403, 403, 401],
  },
  { name: 'POST /v1/orgs/{orgId}/ping (no Origin)', call: (c, x) => c.post(`/v1/orgs/${x.orgId}/ping`), expect: [403, 403, 403, 403, 403, 403, 403, 403, 401] },
];

/** A client that sends a session cookie instead of a token (extra headers merged per call). */
function cookieClient(baseUrl: string, secret: string | undefined): Client {
  const plain = http(baseUrl);
  const cookie = (h: Record<string, string> = {}) => (secret === undefined ? h : { ...h, cookie: `bindery_session=${secret}` });
  return {
    ...plain,
    get: (p, h) => plain.get(p, cookie(h)),
    post: (p, b, h) => plain.post(p, b, cookie(h)),
    send: (m, p, b, h) => plain.send(m, p, b, cookie(h)),
    credentials: cookie(),
  };
}

describe('authorization matrix: sign-in routes and browser sessions', () => {
  let sut: SystemUnderTest;
  let idp: TestIdp;
  let ctx: Ctx;
  let tokens: Record<Caller, Client>;
  let sessions: Record<SessionCaller, Client>;

  beforeAll(async () => {
    sut = await sharedSystem();
    const domain = `matrix-${randomBytes(3).toString('hex')}.example`;
    const org = await organizationWithEveryRole(sut, domain);
    tokens = callerClients(sut, org);
    const claimed = await tokens.admin.patch(`/v1/orgs/${org.orgId}`, { emailDomains: [domain] });
    if (claimed.status !== 200) throw new Error(`claim ${domain}: ${claimed.status} ${JSON.stringify(claimed.body)}`);
    idp = await TestIdp.create();
    const provider = await tokens.admin.post(`/v1/orgs/${org.orgId}/saml`, { label: 'Matrix IdP', entityID: idp.entityID, certificate: idp.certificate, ssoURL: idp.ssoURL });
    if (provider.status !== 201) throw new Error(`provider: ${provider.status}`);
    ctx = { orgId: org.orgId, providerId: provider.body.id, baseUrl: sut.baseUrl };
    // Each member signs in (IdP-initiated) and keeps their role; the session is theirs.
    const metadata = await (await fetch(`${sut.baseUrl}/auth/saml/${ctx.providerId}/metadata`)).text();
    const entityID = /entityID="([^"]+)"/.exec(metadata)![1];
    const acsURL = /Location="([^"]+)"/.exec(metadata)![1];
    sessions = { badCookie: cookieClient(sut.baseUrl, 'bsess_this-session-was-never-opened'), noCookie: cookieClient(sut.baseUrl, undefined) } as Record<SessionCaller, Client>;
    for (const [role, user] of Object.entries(org.members) as Array<[RoleName, { email: string }]>) {
      const samlResponse = await idp.respond({ entityID, acsURL }, { email: user.email });
      const res = await fetch(`${sut.baseUrl}/auth/saml/${ctx.providerId}/acs`, { method: 'POST', redirect: 'manual', body: new URLSearchParams({ SAMLResponse: samlResponse }) });
      const secret = /bindery_session=([^;]+)/.exec(res.headers.get('set-cookie') ?? '')?.[1];
      if (res.status !== 303 || !secret) throw new Error(`sign-in as ${role}: ${res.status} ${await res.text()}`);
      sessions[role] = cookieClient(sut.baseUrl, secret);
    }
  });

  it('answers the sign-in routes alike for every caller, with 0 mismatches', async () => {
    expect(await matrixMismatches(ROUTES, CALLERS, tokens, ctx)).toEqual([]);
  });

  it('gives each session what the token of its user gets, with 0 mismatches; state changes only from this origin', async () => {
    expect(await matrixMismatches(BY_SESSION, SESSION_CALLERS, sessions, ctx)).toEqual([]);
  });
});
