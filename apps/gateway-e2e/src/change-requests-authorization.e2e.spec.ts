import { sharedSystem, SystemUnderTest } from '@bindery/shared/testing';
import { createSpace, setDefaultLevel, unknownId } from './content-fixtures';
import { ContentWriter, contentWriter } from './content-writer';
import { pageIdsOf } from './content-model-fixtures';
import { CR, editChangeRequest, openChangeRequest } from './change-request-fixtures';
import { organizationWithEveryRole } from './fixtures';
import { http } from './http-client';
import { CALLERS, callerClients, Client, matrixMismatches, MatrixRow } from './matrix';

interface Ctx {
  admin: Client;
  spaceId: string;
  restrictedId: string;
  orgId: string;
  crId: string;
  crNumber: number;
  pageId: string;
  restrictedCr: string;
}

// Callers: admin create review edit comment read guest stranger badToken noToken.
// The space's default level is inherit, so each member has their organization role on it; the guest
// (a member without a role) has none and gets the same 404 as for a space that does not exist, like
// the admin of another organization. Reading needs read, editing a change request edit, merging review.
const READ = [200, 200, 200, 200, 200, 200, 404, 404, 401, 401];
const EDIT = [200, 200, 200, 200, 403, 403, 404, 404, 401, 401];
const get = (path: (c: Ctx) => string) => (client: Client, c: Ctx) => client.get(path(c));

const ROWS: Array<MatrixRow<Ctx>> = [
  { name: 'POST change-requests (createChangeRequest)', call: (cl, c) => cl.post(CR(c.spaceId), { subject: 'm' }), expect: [201, 201, 201, 201, 403, 403, 404, 404, 401, 401] },
  { name: 'GET change-requests (listChangeRequestsForSpace)', call: get((c) => CR(c.spaceId)), expect: READ },
  {
    name: 'GET orgs/{org}/change-requests (listChangeRequestsForOrganization)',
    call: get((c) => `/v1/orgs/${c.orgId}/change-requests`),
    expect: [200, 200, 200, 200, 200, 200, 200, 404, 401, 401],
  },
  { name: 'GET change-request by id', call: get((c) => CR(c.spaceId, c.crId)), expect: READ },
  { name: 'GET change-request by number', call: get((c) => CR(c.spaceId, c.crNumber)), expect: READ },
  { name: 'GET a change request that does not exist', call: get((c) => CR(c.spaceId, unknownId())), expect: [404, 404, 404, 404, 404, 404, 404, 404, 401, 401] },
  { name: 'GET change request of a space that does not exist', call: get((c) => CR(unknownId(), c.crId)), expect: [404, 404, 404, 404, 404, 404, 404, 404, 401, 401] },
  { name: 'GET change request of a restricted space', call: get((c) => CR(c.restrictedId, c.restrictedCr)), expect: [200, 404, 404, 404, 404, 404, 404, 404, 401, 401] },
  { name: 'PATCH change-request (updateChangeRequestById)', call: (cl, c) => cl.patch(CR(c.spaceId, c.crId), { subject: 'renamed' }), expect: EDIT },
  {
    name: 'POST change-request content (updateChangeRequestContent)',
    call: (cl, c) => cl.post(`${CR(c.spaceId, c.crId)}/content`, { changes: [{ operation: 'update_page', page: c.pageId, title: 'T' }] }),
    expect: EDIT,
  },
  { name: 'POST change-request update (updateChangeRequest)', call: (cl, c) => cl.post(`${CR(c.spaceId, c.crId)}/update`, undefined), expect: EDIT },
  { name: 'GET change-request changes (getChangeRequestChanges)', call: get((c) => `${CR(c.spaceId, c.crId)}/changes`), expect: READ },
  { name: 'GET change-request content (getRevisionOfChangeRequestById)', call: get((c) => `${CR(c.spaceId, c.crId)}/content`), expect: READ },
  { name: 'GET change-request content/pages', call: get((c) => `${CR(c.spaceId, c.crId)}/content/pages`), expect: READ },
  { name: 'GET change-request content/files', call: get((c) => `${CR(c.spaceId, c.crId)}/content/files`), expect: READ },
  {
    name: 'GET change-request content/files/{fileId} (none such)',
    call: get((c) => `${CR(c.spaceId, c.crId)}/content/files/${unknownId()}`),
    expect: [404, 404, 404, 404, 404, 404, 404, 404, 401, 401],
  },
  { name: 'GET change-request content/page/{pageId}', call: get((c) => `${CR(c.spaceId, c.crId)}/content/page/${c.pageId}`), expect: READ },
  { name: 'GET change-request content/page/{pageId}/links', call: get((c) => `${CR(c.spaceId, c.crId)}/content/page/${c.pageId}/links`), expect: READ },
  { name: 'GET change-request content/path/{pagePath}', call: get((c) => `${CR(c.spaceId, c.crId)}/content/path/alpha`), expect: READ },
  {
    // a fresh change request for each caller, made and edited by the admin
    name: 'POST change-request merge (mergeChangeRequest)',
    call: async (cl, c) => {
      const cr = await openChangeRequest(c.admin, c.spaceId, 'to merge');
      await editChangeRequest(c.admin, c.spaceId, cr.id, [{ operation: 'insert_page', title: `Merged ${unknownId()}`, document: { markdown: 'm' } }]);
      return cl.post(`${CR(c.spaceId, cr.id)}/merge`, undefined);
    },
    expect: [200, 200, 200, 403, 403, 403, 404, 404, 401, 401],
  },
];

describe('change requests: who may call what (roles × another organization × no token)', () => {
  let sut: SystemUnderTest;
  let writer: ContentWriter;
  let ctx: Ctx;
  let clients: ReturnType<typeof callerClients>;

  // Longer than the tier: seeds a member per role, spaces and change requests through the API.
  beforeAll(async () => {
    sut = await sharedSystem();
    const org = await organizationWithEveryRole(sut);
    clients = callerClients(sut, org);
    const admin = http(sut.baseUrl, org.members.admin.token);
    writer = contentWriter(sut);
    const spaceId = (await createSpace(admin, org.orgId, { title: 'CR matrix' })).id as string;
    const [pageId] = pageIdsOf(await writer.apply(org.members.admin.id, spaceId, [{ operation: 'insert_page', title: 'Alpha', document: { markdown: 'a' } }]));
    const cr = await openChangeRequest(admin, spaceId);
    const restrictedId = (await createSpace(admin, org.orgId, { title: 'CR restricted' })).id as string;
    await setDefaultLevel(admin, 'space', restrictedId, null);
    const restrictedCr = (await openChangeRequest(admin, restrictedId)).id as string;
    ctx = { admin, spaceId, restrictedId, orgId: org.orgId, crId: cr.id, crNumber: cr.number, pageId, restrictedCr };
  }, 180_000);

  afterAll(() => writer?.close());

  // Longer than the tier: one request per cell of the authorization matrix.
  it('answers every endpoint as the matrix says, with the error body on every refusal', async () => {
    const mismatches = await matrixMismatches(ROWS, CALLERS, clients, ctx);
    console.log(`change-request matrix: ${ROWS.length} endpoints × ${CALLERS.length} callers = ${ROWS.length * CALLERS.length} checks, ${mismatches.length} mismatches`);
    expect(mismatches).toEqual([]);
  }, 300_000);
});
