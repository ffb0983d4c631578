import { assertMatchesSpec, sharedSystem, SystemUnderTest } from '@bindery/shared/testing';
import { createSpace, setDefaultLevel } from './content-fixtures';
import { ContentWriter, contentWriter } from './content-writer';
import { CR, editChangeRequest, mergeChangeRequest, openChangeRequest } from './change-request-fixtures';
import { organizationWithEveryRole } from './fixtures';
import { http } from './http-client';
import { CALLERS, callerClients, Client, matrixMismatches, MatrixRow } from './matrix';

interface Merged {
  spaceId: string;
  crId: string;
  revision: string;
  /** a change request opened after the merge: its head is the merge revision */
  laterCr: string;
}
interface Ctx {
  open: Merged;
  restricted: Merged;
}

/** A space whose current revision merged a change request, and a change request opened on top of it. */
async function mergedSpace(admin: Client, writer: ContentWriter, ownerId: string, orgId: string, title: string): Promise<Merged> {
  const spaceId = (await createSpace(admin, orgId, { title })).id as string;
  await writer.apply(ownerId, spaceId, [{ operation: 'insert_page', title: 'Alpha', document: { markdown: 'a' } }]);
  const cr = await openChangeRequest(admin, spaceId, 'To merge');
  await editChangeRequest(admin, spaceId, cr.id, [{ operation: 'insert_page', title: 'Beta', document: { markdown: 'b' } }]);
  const { revision } = await mergeChangeRequest(admin, spaceId, cr.id);
  const later = await openChangeRequest(admin, spaceId, 'After the merge');
  return { spaceId, crId: cr.id, revision, laterCr: later.id };
}

/** Every read of a revision answers the official Revision: a merge revision's `mergedFrom` is the ChangeRequest it merged. */
const reads: Array<[string, string, (m: Merged) => string]> = [
  ['getCurrentRevision', '/spaces/{spaceId}/content', (m) => `/v1/spaces/${m.spaceId}/content`],
  ['getRevisionById', '/spaces/{spaceId}/revisions/{revisionId}', (m) => `/v1/spaces/${m.spaceId}/revisions/${m.revision}`],
  ['getRevisionOfChangeRequestById', '/spaces/{spaceId}/change-requests/{changeRequestId}/content', (m) => `${CR(m.spaceId, m.laterCr)}/content`],
];

function checked(client: Client, m: Merged, path: string, url: string) {
  return client.get(url).then((res) => {
    if (res.status === 200) {
      assertMatchesSpec('0.130.0', 'get', path, 200, res.body);
      expect(res.body).toMatchObject({ id: m.revision, type: 'merge', mergedFrom: { object: 'change-request', id: m.crId, status: 'merged', revisionMerged: m.revision } });
    }
    return res;
  });
}

// Callers: admin create review edit comment read guest stranger badToken noToken. Whoever may read
// the space reads its merge revision with the change request; the rest get what any read gives them.
const READ = [200, 200, 200, 200, 200, 200, 404, 404, 401, 401];
const ADMIN_ONLY = [200, 404, 404, 404, 404, 404, 404, 404, 401, 401];
const ROWS: Array<MatrixRow<Ctx>> = reads.flatMap(([op, path, url]) => [
  { name: `${op} of a merge revision`, call: (cl: Client, c: Ctx) => checked(cl, c.open, path, url(c.open)), expect: READ },
  { name: `${op} of a merge revision in a restricted space`, call: (cl: Client, c: Ctx) => checked(cl, c.restricted, path, url(c.restricted)), expect: ADMIN_ONLY },
]);

describe('merge revisions carry the change request they merged (every revision read)', () => {
  let sut: SystemUnderTest;
  let writer: ContentWriter;
  let ctx: Ctx;
  let clients: ReturnType<typeof callerClients>;

  beforeAll(async () => {
    sut = await sharedSystem();
    const org = await organizationWithEveryRole(sut);
    clients = callerClients(sut, org);
    const owner = org.members.admin;
    const admin = http(sut.baseUrl, owner.token);
    writer = contentWriter(sut);
    const open = await mergedSpace(admin, writer, owner.id, org.orgId, 'Merged');
    const restricted = await mergedSpace(admin, writer, owner.id, org.orgId, 'Merged, restricted');
    await setDefaultLevel(admin, 'space', restricted.spaceId, null);
    ctx = { open, restricted };
  }, 240_000);

  afterAll(() => writer?.close());

  it('answers mergedFrom as the official ChangeRequest to every reader, as the matrix says', async () => {
    const mismatches = await matrixMismatches(ROWS, CALLERS, clients, ctx);
    expect(mismatches).toEqual([]);
  }, 120_000);
});
