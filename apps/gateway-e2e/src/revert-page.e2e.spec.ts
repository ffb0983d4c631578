import { assertErrorBody, sharedSystem, SystemUnderTest } from '@bindery/shared/testing';
import { createSpace, unknownId } from './content-fixtures';
import { ContentWriter, contentWriter } from './content-writer';
import { flatPages, Json, pageIdsOf } from './content-model-fixtures';
import { CR, editChangeRequest, openChangeRequest } from './change-request-fixtures';
import { organizationWithEveryRole } from './fixtures';
import { http } from './http-client';
import { CALLERS, callerClients, Client, matrixMismatches, MatrixRow } from './matrix';

interface Ctx {
  spaceId: string;
  crId: string;
  alpha: string;
}

const revert = (cl: Client, spaceId: string, crId: string, change: Json) => cl.post(`${CR(spaceId, crId)}/content`, { changes: [{ operation: 'revert_page', ...change }] });

// Callers: admin create review edit comment read guest stranger badToken noToken. Reverting is
// editing the change request: editors and up; comment and read see it (403); the rest do not (404).
const ROWS: Array<MatrixRow<Ctx>> = [
  { name: 'revert_page in a change request', call: (cl, c) => revert(cl, c.spaceId, c.crId, { page: c.alpha }), expect: [200, 200, 200, 200, 403, 403, 404, 404, 401, 401] },
];

describe('revert_page: a page of a change request back to its state in a revision', () => {
  let sut: SystemUnderTest;
  let writer: ContentWriter;
  let admin: Client;
  let ownerId: string;
  let orgId: string;
  let clients: ReturnType<typeof callerClients>;

  /** A space with Alpha and Beta, and a change request on it. */
  async function spaceWithChangeRequest(title: string) {
    const spaceId = (await createSpace(admin, orgId, { title })).id as string;
    const [alpha, beta] = pageIdsOf(
      await writer.apply(ownerId, spaceId, [
        { operation: 'insert_page', title: 'Alpha', document: { markdown: 'a1\n\na2' } },
        { operation: 'insert_page', title: 'Beta', document: { markdown: 'b1' } },
      ]),
    );
    const cr = await openChangeRequest(admin, spaceId);
    return { spaceId, alpha, beta, crId: cr.id as string };
  }
  const pagesOf = async (spaceId: string, crId: string) => flatPages((await admin.get(`${CR(spaceId, crId)}/content/pages`)).body.pages as Json[]);
  const markdownOf = async (spaceId: string, crId: string, pageId: string) =>
    ((await admin.get(`${CR(spaceId, crId)}/content/page/${pageId}?format=markdown`)).body.markdown as string).trim();

  beforeAll(async () => {
    sut = await sharedSystem();
    const org = await organizationWithEveryRole(sut);
    clients = callerClients(sut, org);
    orgId = org.orgId;
    ownerId = org.members.admin.id;
    admin = http(sut.baseUrl, org.members.admin.token);
    writer = contentWriter(sut);
  }, 240_000);

  afterAll(() => writer?.close());

  it("without a revision, undoes the change request's edits to a page: edited, deleted and added pages", async () => {
    const { spaceId, alpha, beta, crId } = await spaceWithChangeRequest('Revert to base');
    const edited = await editChangeRequest(admin, spaceId, crId, [
      { operation: 'update_page', page: alpha, title: 'Alpha edited', document: { markdown: 'edited' } },
      { operation: 'delete_page', page: beta },
      { operation: 'insert_page', title: 'Gamma', document: { markdown: 'g' } },
    ]);
    const gamma = (edited.changes as Json[]).find((c) => c.object === 'created_page')!.page.id as string;
    expect((await pagesOf(spaceId, crId)).map((p) => p.title)).toEqual(['Alpha edited', 'Gamma']);

    const reverted = await editChangeRequest(admin, spaceId, crId, [
      { operation: 'revert_page', page: alpha },
      { operation: 'revert_page', page: beta },
      { operation: 'revert_page', page: gamma },
    ]);
    expect(reverted.changes).toEqual([
      { object: 'updated_page', page: expect.objectContaining({ id: alpha }) },
      { object: 'created_page', page: expect.objectContaining({ id: beta }) },
      { object: 'deleted_page', page: gamma },
    ]);
    expect((await pagesOf(spaceId, crId)).map((p) => [p.id, p.title, p.path])).toEqual([
      [alpha, 'Alpha', 'alpha'],
      [beta, 'Beta', 'beta'],
    ]);
    expect(await markdownOf(spaceId, crId, alpha)).toBe('a1\n\na2');
    // nothing is left to merge
    expect((await admin.get(`${CR(spaceId, crId)}/changes`)).body.changes).toEqual([]);
  });

  it('with a revision, puts the page back as it was there; a revision that is not of this space is refused and changes nothing', async () => {
    const { spaceId, alpha, crId } = await spaceWithChangeRequest('Revert to a revision');
    const v2 = await editChangeRequest(admin, spaceId, crId, [{ operation: 'update_page', page: alpha, document: { markdown: 'v2' } }]);
    const v3 = await editChangeRequest(admin, spaceId, crId, [{ operation: 'update_page', page: alpha, document: { markdown: 'v3' } }]);
    expect(await markdownOf(spaceId, crId, alpha)).toBe('v3');
    const other = await spaceWithChangeRequest('Another space');

    for (const [change, message] of [
      [{ page: alpha, revision: unknownId() }, /revision: no revision/],
      [{ page: alpha, revision: other.crId }, /revision: no revision/],
      [{ page: unknownId() }, /no page ".*" in this revision or in revision/],
      [{ page: alpha, block: ['no-such-block'] }, /no block "no-such-block"/],
    ] as Array<[Json, RegExp]>) {
      const res = await revert(admin, spaceId, crId, change);
      expect(res.status).toBe(400);
      assertErrorBody(400, res.body);
      expect(res.body.error.message).toMatch(message);
    }
    expect((await admin.get(CR(spaceId, crId))).body.revision).toBe(v3.changeRequest.revision);

    const back = await editChangeRequest(admin, spaceId, crId, [{ operation: 'revert_page', page: alpha, revision: v2.changeRequest.revision }]);
    expect(back.changes).toEqual([{ object: 'updated_page', page: expect.objectContaining({ id: alpha }) }]);
    expect(await markdownOf(spaceId, crId, alpha)).toBe('v2');
  });

  it('is allowed to editors of the space, as the matrix says', async () => {
    const { spaceId, alpha, crId } = await spaceWithChangeRequest('Revert matrix');
    await editChangeRequest(admin, spaceId, crId, [{ operation: 'update_page', page: alpha, title: 'Changed' }]);
    expect(await matrixMismatches(ROWS, CALLERS, clients, { spaceId, crId, alpha })).toEqual([]);
  });
});
