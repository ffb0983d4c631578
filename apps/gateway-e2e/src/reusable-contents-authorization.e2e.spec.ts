import { sharedSystem, SystemUnderTest } from '@bindery/shared/testing';
import { contentItem, unknownId } from './content-fixtures';
import { openChangeRequest } from './change-request-fixtures';
import { organizationWithEveryRole } from './fixtures';
import { http } from './http-client';
import { CALLERS, callerClients, Caller, Client, matrixMismatches, MatrixRow } from './matrix';
import { seedReusableContents, SeededReusableContents } from './reusable-content-fixtures';

interface Ctx {
  spaceId: string;
  changeRequestId: string;
  seeded: SeededReusableContents;
  /** 404s that differ from the same call about a space id that names nothing */
  shapes: string[];
}

type Path = (spaceId: string, x: Ctx) => string;
const C = (id: string) => `/v1/spaces/${id}/content`;
const R = (id: string, x: Ctx) => `/v1/spaces/${id}/revisions/${x.seeded.revisionId}`;

// Readers of the space read its reusable contents: every member with a role (the space inherits the
// organization's roles); a guest without a grant and another organization's admin get the 404 of a
// space that does not exist; a bad token or none, 401.
//                                               admin create review edit comment read guest stranger bad none
const ROWS: Array<{ name: string; path: Path; expect: number[] }> = [
  {
    name: 'GET content/reusable-contents/{id} (getReusableContentById)',
    path: (id, x) => `${C(id)}/reusable-contents/${x.seeded.beta}`,
    expect: [200, 200, 200, 200, 200, 200, 404, 404, 401, 401],
  },
  {
    name: 'GET revisions/{revisionId}/reusable-contents/{id} (getReusableContentInRevisionById)',
    path: (id, x) => `${R(id, x)}/reusable-contents/${x.seeded.beta}`,
    expect: [200, 200, 200, 200, 200, 200, 404, 404, 401, 401],
  },
  {
    name: 'GET revisions/{revisionId}/reusable-contents/{id}/document (getReusableContentDocumentInRevisionById)',
    path: (id, x) => `${R(id, x)}/reusable-contents/${x.seeded.beta}/document`,
    expect: [200, 200, 200, 200, 200, 200, 404, 404, 401, 401],
  },
  {
    name: 'GET change-requests/{changeRequestId}/content/reusable-contents/{id} (getReusableContentInChangeRequestById)',
    path: (id, x) => `/v1/spaces/${id}/change-requests/${x.changeRequestId}/content/reusable-contents/${x.seeded.beta}`,
    expect: [200, 200, 200, 200, 200, 200, 404, 404, 401, 401],
  },
];

/** Whenever a caller gets a 404, the same call about a space that does not exist answers the same status and body. */
const rows: Array<MatrixRow<Ctx>> = ROWS.map((row) => ({
  name: row.name,
  expect: row.expect,
  async call(c: Client, x: Ctx, who: Caller) {
    const res = await c.get(row.path(x.spaceId, x));
    if (res.status === 404) {
      const ghostId = unknownId();
      const ghost = await c.get(row.path(ghostId, x));
      const seen = JSON.stringify(res.body).split(x.spaceId).join('<id>');
      const unknown = JSON.stringify(ghost.body).split(ghostId).join('<id>');
      if (ghost.status !== res.status || seen !== unknown) x.shapes.push(`${row.name} as ${who}: ${res.status} ${seen}, for an unknown space ${ghost.status} ${unknown}`);
    }
    return res;
  },
}));

describe('authorization matrix: reusable contents', () => {
  let sut: SystemUnderTest;
  let clients: Record<Caller, Client>;
  let ctx: Ctx;

  beforeAll(async () => {
    sut = await sharedSystem();
    const org = await organizationWithEveryRole(sut);
    clients = callerClients(sut, org);
    const admin = http(sut.baseUrl, org.members.admin.token);
    const spaceId = await contentItem(admin, org.orgId, 'space', { title: 'Reusable matrix' });
    const seeded = await seedReusableContents(sut, org.members.admin.id, spaceId);
    const changeRequestId = (await openChangeRequest(admin, spaceId, 'Matrix')).id as string;
    ctx = { spaceId, changeRequestId, seeded, shapes: [] };
  }, 180_000);

  it('answers every read as written; a hidden space like a nonexistent one', async () => {
    expect(await matrixMismatches(rows, CALLERS, clients, ctx)).toEqual([]);
    expect(ctx.shapes).toEqual([]);
  }, 300_000);
});
