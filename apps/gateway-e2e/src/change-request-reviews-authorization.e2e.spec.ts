import { assertMatchesSpec, sharedSystem, SystemUnderTest } from '@bindery/shared/testing';
import { CR, mergeChangeRequest, openChangeRequest } from './change-request-fixtures';
import { createSpace, unknownId } from './content-fixtures';
import { Json } from './content-model-fixtures';
import { organizationWithEveryRole, RoleName, TestUser } from './fixtures';
import { HttpResult } from './http-client';
import { CALLERS, Caller, callerClients, Client, matrixMismatches, MatrixRow } from './matrix';

// The callers: one member per organization role (admin … read), a guest (a member without a role, so
// without access to the space), the admin of another organization, a token never issued, and none.
// The space under test has the default level `inherit`: every member with a role has their
// organization role on it. Reading reviews and requested reviewers needs read; submitting a review
// needs review; asking and un-asking reviewers needs edit. Who sees the space without the role is
// refused (403), who does not see it gets the 404 of a space that does not exist, a bad or missing
// token 401. A merged change request takes no review and no change of its reviewers (409), after
// the role checks.

interface Target {
  crId: string;
  reviewId: string;
}

interface Ctx {
  spaceId: string;
  open: Target;
  merged: Target;
  /** the member asked to review (review role) */
  reviewer: string;
  /** asks the reviewer again (as the admin), so that every remover finds a request to remove */
  reRequest(crId: string): Promise<void>;
  /** answers that differ from the same call about a space that does not exist */
  shapes: string[];
}

interface Row {
  name: string;
  on: 'open' | 'merged';
  send(c: Client, spaceId: string, t: Target, x: Ctx): Promise<HttpResult>;
  before?(x: Ctx, t: Target): Promise<void>;
  expect: number[];
}

const reviews = (spaceId: string, t: Target) => `${CR(spaceId, t.crId)}/reviews`;
const requested = (spaceId: string, t: Target) => `${CR(spaceId, t.crId)}/requested-reviewers`;

//                                                   admin create review edit comment read guest stranger bad none
const ROWS: Row[] = [
  {
    name: 'GET reviews (getReviewsByChangeRequestId)',
    on: 'open',
    send: (c, s, t) => c.get(reviews(s, t)),
    expect: [200, 200, 200, 200, 200, 200, 404, 404, 401, 401],
  },
  {
    name: 'GET reviews?outdated=true&format=markdown&limit=1',
    on: 'open',
    send: (c, s, t) => c.get(`${reviews(s, t)}?outdated=true&format=markdown&limit=1`),
    expect: [200, 200, 200, 200, 200, 200, 404, 404, 401, 401],
  },
  {
    name: 'POST reviews (submitChangeRequestReview)',
    on: 'open',
    send: (c, s, t) => c.post(reviews(s, t), { status: 'approved' }),
    expect: [201, 201, 201, 403, 403, 403, 404, 404, 401, 401],
  },
  {
    name: 'POST reviews with a comment',
    on: 'open',
    send: (c, s, t) => c.post(reviews(s, t), { status: 'changes-requested', comment: { markdown: 'Needs work.' } }),
    expect: [201, 201, 201, 403, 403, 403, 404, 404, 401, 401],
  },
  {
    name: 'GET reviews/{reviewId} (getChangeRequestReviewById)',
    on: 'open',
    send: (c, s, t) => c.get(`${reviews(s, t)}/${t.reviewId}`),
    expect: [200, 200, 200, 200, 200, 200, 404, 404, 401, 401],
  },
  {
    name: 'GET requested-reviewers (getRequestedReviewersByChangeRequestId)',
    on: 'open',
    send: (c, s, t) => c.get(requested(s, t)),
    expect: [200, 200, 200, 200, 200, 200, 404, 404, 401, 401],
  },
  {
    name: 'POST requested-reviewers (requestReviewersForChangeRequest)',
    on: 'open',
    send: (c, s, t, x) => c.post(requested(s, t), { users: [x.reviewer] }),
    expect: [200, 200, 200, 200, 403, 403, 404, 404, 401, 401],
  },
  {
    name: 'POST requested-reviewers with a subject',
    on: 'open',
    send: (c, s, t, x) => c.post(requested(s, t), { users: [x.reviewer], subject: 'Renamed with the request' }),
    expect: [200, 200, 200, 200, 403, 403, 404, 404, 401, 401],
  },
  {
    name: 'DELETE requested-reviewers/{userId} (removeRequestedReviewerFromChangeRequest), requested',
    on: 'open',
    before: (x, t) => x.reRequest(t.crId),
    send: (c, s, t, x) => c.delete(`${requested(s, t)}/${x.reviewer}`),
    expect: [205, 205, 205, 205, 403, 403, 404, 404, 401, 401],
  },
  {
    name: 'DELETE requested-reviewers/{userId}, not requested',
    on: 'open',
    send: (c, s, t) => c.delete(`${requested(s, t)}/never-asked`),
    expect: [204, 204, 204, 204, 403, 403, 404, 404, 401, 401],
  },
  {
    name: 'GET reviews [merged]',
    on: 'merged',
    send: (c, s, t) => c.get(reviews(s, t)),
    expect: [200, 200, 200, 200, 200, 200, 404, 404, 401, 401],
  },
  {
    name: 'GET reviews/{reviewId} [merged]',
    on: 'merged',
    send: (c, s, t) => c.get(`${reviews(s, t)}/${t.reviewId}`),
    expect: [200, 200, 200, 200, 200, 200, 404, 404, 401, 401],
  },
  {
    name: 'POST reviews [merged]',
    on: 'merged',
    send: (c, s, t) => c.post(reviews(s, t), { status: 'approved' }),
    expect: [409, 409, 409, 403, 403, 403, 404, 404, 401, 401],
  },
  {
    name: 'GET requested-reviewers [merged]',
    on: 'merged',
    send: (c, s, t) => c.get(requested(s, t)),
    expect: [200, 200, 200, 200, 200, 200, 404, 404, 401, 401],
  },
  {
    name: 'POST requested-reviewers [merged]',
    on: 'merged',
    send: (c, s, t, x) => c.post(requested(s, t), { users: [x.reviewer] }),
    expect: [409, 409, 409, 409, 403, 403, 404, 404, 401, 401],
  },
  {
    name: 'DELETE requested-reviewers/{userId} [merged]',
    on: 'merged',
    send: (c, s, t, x) => c.delete(`${requested(s, t)}/${x.reviewer}`),
    expect: [409, 409, 409, 409, 403, 403, 404, 404, 401, 401],
  },
];

/** Whenever a caller gets a 404, the same call about a space that does not exist must answer the same status and body. */
function matrixRows(rows: Row[]): Array<MatrixRow<Ctx>> {
  return rows.map((row) => ({
    name: row.name,
    expect: row.expect,
    async call(c, x, who) {
      const t = x[row.on];
      await row.before?.(x, t);
      const res = await row.send(c, x.spaceId, t, x);
      if (res.status === 404) {
        const ghostId = unknownId();
        const ghost = await row.send(c, ghostId, t, x);
        const seen = JSON.stringify(res.body).split(x.spaceId).join('<id>');
        const unknown = JSON.stringify(ghost.body).split(ghostId).join('<id>');
        if (ghost.status !== res.status || seen !== unknown) x.shapes.push(`${row.name} as ${who}: ${res.status} ${seen}, for an unknown space ${ghost.status} ${unknown}`);
      }
      return res;
    },
  }));
}

/** Writes a page into the change request (edit role), expecting 200 and the change request. */
async function writePage(client: Client, spaceId: string, crId: string, title: string): Promise<Json> {
  const res = await client.post(`${CR(spaceId, crId)}/content`, { changes: [{ operation: 'insert_page', title, document: { markdown: `${title}.` } }] });
  if (res.status !== 200) throw new Error(`write page: ${res.status} ${JSON.stringify(res.body)}`);
  assertMatchesSpec('0.202.0', 'post', '/spaces/{spaceId}/change-requests/{changeRequestId}/content', 200, res.body);
  return res.body;
}

describe('authorization matrix: change request reviews and requested reviewers', () => {
  let sut: SystemUnderTest;
  let clients: Record<Caller, Client>;
  let members: Record<RoleName, TestUser>;
  let ctx: Ctx;

  // Longer than the tier: seeds a member per role, spaces and change requests through the API.
  beforeAll(async () => {
    sut = await sharedSystem();
    const org = await organizationWithEveryRole(sut);
    members = org.members;
    clients = callerClients(sut, org);
    const spaceId = (await createSpace(clients.admin, org.orgId, { title: 'Reviews matrix' })).id;

    const target = async (subject: string): Promise<Target> => {
      const cr = await openChangeRequest(clients.edit, spaceId, subject);
      await writePage(clients.edit, spaceId, cr.id, subject);
      const review = await clients.review.post(`${CR(spaceId, cr.id)}/reviews`, { status: 'approved', comment: { markdown: 'Fine.' } });
      if (review.status !== 201) throw new Error(`review: ${review.status} ${JSON.stringify(review.body)}`);
      const asked = await clients.edit.post(`${CR(spaceId, cr.id)}/requested-reviewers`, { users: [members.review.id] });
      if (asked.status !== 200) throw new Error(`request: ${asked.status} ${JSON.stringify(asked.body)}`);
      return { crId: cr.id, reviewId: review.body.id };
    };
    const open = await target('Open for review');
    const merged = await target('Merged');
    await mergeChangeRequest(clients.admin, spaceId, merged.crId);
    ctx = {
      spaceId,
      open,
      merged,
      reviewer: members.review.id,
      async reRequest(crId) {
        const res = await clients.admin.post(`${CR(spaceId, crId)}/requested-reviewers`, { users: [members.review.id] });
        if (res.status !== 200) throw new Error(`re-request: ${res.status} ${JSON.stringify(res.body)}`);
      },
      shapes: [],
    };
  }, 180_000);

  // Longer than the tier: one request per cell of the authorization matrix.
  it('answers every call as written, a hidden space like a nonexistent one, and only the allowed calls change anything', async () => {
    expect(await matrixMismatches(matrixRows(ROWS), CALLERS, clients, ctx)).toEqual([]);
    expect(ctx.shapes).toEqual([]);

    // the two POST reviews rows added a review each by admin, create and review, next to the seeded one
    const open = await clients.read.get(`${CR(ctx.spaceId, ctx.open.crId)}/reviews?limit=1000`);
    expect(open.body.count).toBe(7);
    const reviewers = (open.body.items as Array<{ reviewer: { id: string } }>).map((r) => r.reviewer.id);
    expect(reviewers.filter((id) => id === members.review.id)).toHaveLength(3);
    expect(new Set(reviewers)).toEqual(new Set([members.admin.id, members.create.id, members.review.id]));
    expect((await clients.read.get(CR(ctx.spaceId, ctx.open.crId))).body.subject).toBe('Renamed with the request');
    // nothing changed on the merged one
    expect((await clients.read.get(`${CR(ctx.spaceId, ctx.merged.crId)}/reviews`)).body.count).toBe(1);
    const asked = await clients.read.get(`${CR(ctx.spaceId, ctx.merged.crId)}/requested-reviewers`);
    expect((asked.body.items as Array<{ user: { id: string } }>).map((q) => q.user.id)).toEqual([members.review.id]);
  }, 300_000);
});
