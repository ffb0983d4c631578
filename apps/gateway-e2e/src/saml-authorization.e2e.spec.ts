import { sharedSystem, SystemUnderTest } from '@bindery/shared/testing';
import { Caller, CALLERS, callerClients, Client, matrixMismatches, MatrixRow } from './matrix';
import { organizationWithEveryRole } from './fixtures';
import { selfSignedCertificate } from './saml-fixtures';

type Who = Caller;
const WHO = CALLERS;

interface Ctx {
  orgId: string;
  providerId: string;
  /** deleted by the admin's call; the others must be refused before it matters */
  deleteTarget: string;
}

type Row = MatrixRow<Ctx>;

// Each SAML / SSO endpoint × each kind of caller, with the expected status written out. Providers are
// managed by organization admins only; the sign-in choices are for every member, guests included.
//                                                                                        admin create review edit comment read guest stranger bad none
const MATRIX: Row[] = [
  { name: 'GET /v1/orgs/{orgId}/saml', call: (c, x) => c.get(`/v1/orgs/${x.orgId}/saml`), expect: [200, 403, 403, 403, 403, 403, 403, 404, 401, 401] },
  { name: 'POST /v1/orgs/{orgId}/saml', call: (c, x) => c.post(`/v1/orgs/${x.orgId}/saml`, { label: 'Matrix IdP' }), expect: [201, 403, 403, 403, 403, 403, 403, 404, 401, 401] },
  { name: 'GET /v1/orgs/{orgId}/saml/{id}', call: (c, x) => c.get(`/v1/orgs/${x.orgId}/saml/${x.providerId}`), expect: [200, 403, 403, 403, 403, 403, 403, 404, 401, 401] },
  {
    name: 'PATCH /v1/orgs/{orgId}/saml/{id}',
    call: (c, x) => c.patch(`/v1/orgs/${x.orgId}/saml/${x.providerId}`, { label: 'Renamed' }),
    expect: [200, 403, 403, 403, 403, 403, 403, 404, 401, 401],
  },
  { name: 'DELETE /v1/orgs/{orgId}/saml/{id}', call: (c, x) => c.delete(`/v1/orgs/${x.orgId}/saml/${x.deleteTarget}`), expect: [204, 403, 403, 403, 403, 403, 403, 404, 401, 401] },
  // Nothing to delete: "did not exist" (204) only to whoever may delete; an invisible organization stays 404.
  { name: 'DELETE /v1/orgs/{orgId}/saml/{absent}', call: (c, x) => c.delete(`/v1/orgs/${x.orgId}/saml/never-was`), expect: [204, 403, 403, 403, 403, 403, 403, 404, 401, 401] },
  { name: 'GET /v1/orgs/{orgId}/sso', call: (c, x) => c.get(`/v1/orgs/${x.orgId}/sso`), expect: [200, 200, 200, 200, 200, 200, 200, 404, 401, 401] },
];

describe('authorization matrix: SAML providers and SSO sign-in choices', () => {
  let sut: SystemUnderTest;
  let clients: Record<Who, Client>;
  let ctx: Ctx;

  beforeAll(async () => {
    sut = await sharedSystem();
    const { orgId, members, stranger } = await organizationWithEveryRole(sut);
    clients = callerClients(sut, { orgId, members, stranger });
    const admin = clients.admin;
    const certificate = selfSignedCertificate();
    const provider = await admin.post(`/v1/orgs/${orgId}/saml`, { label: 'Matrix', entityID: 'urn:matrix', certificate, ssoURL: 'https://idp.example/sso' });
    const target = await admin.post(`/v1/orgs/${orgId}/saml`, { label: 'Delete me' });
    if (provider.status !== 201 || target.status !== 201) throw new Error(`setup: ${provider.status} ${target.status}`);
    ctx = { orgId, providerId: provider.body.id, deleteTarget: target.body.id };
  });

  it('answers every caller as written, with 0 mismatches', async () => {
    expect(await matrixMismatches(MATRIX, WHO, clients, ctx)).toEqual([]);
  });

  it('changes nothing for refused callers', async () => {
    const res = await clients.admin.get(`/v1/orgs/${ctx.orgId}/saml/${ctx.providerId}`);
    // Only the admin's PATCH went through; the admin's POST made the only extra provider.
    expect(res.body.label).toBe('Renamed');
    const list = await clients.admin.get(`/v1/orgs/${ctx.orgId}/saml`);
    expect(list.body.items.map((p: { label: string }) => p.label).sort()).toEqual(['Matrix IdP', 'Renamed']);
    const logins = await clients.guest.get(`/v1/orgs/${ctx.orgId}/sso`);
    expect(logins.body.items).toEqual([{ id: ctx.providerId, label: 'Renamed', startURL: res.body.service.startURL }]);
  });
});
