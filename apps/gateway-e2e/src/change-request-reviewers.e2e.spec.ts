import { assertErrorBody, assertMatchesSpec, eventually, SystemUnderTest } from '@bindery/shared/testing';
import { CR, mergeChangeRequest } from './change-request-fixtures';
import { Json } from './content-model-fixtures';
import { createUser } from './fixtures';
import { walk } from './http-client';
import { REQUESTED_PATH, requestedOf, assertRequestedList, request, requested, reviewedSpace, ReviewedSpace } from './change-request-review-fixtures';

const TITLE = 'Review requested';

describe('requested reviewers of change requests through the gateway', () => {
  let sut: SystemUnderTest;
  let orgId: string;
  let members: ReviewedSpace['members'];
  let stranger: ReviewedSpace['stranger'];
  let as: ReviewedSpace['as'];
  let spaceId: string;
  let changeRequest: ReviewedSpace['changeRequest'];

  beforeAll(async () => {
    ({ sut, orgId, members, stranger, as, spaceId, changeRequest } = await reviewedSpace(TITLE));
  });

  describe('requested reviewers', () => {
    it('asks members with the review role, answers the requests made, and lists them with the official shapes', async () => {
      const cr = await changeRequest();
      const res = await as.edit.post(requestedOf(spaceId, cr.id), { users: [members.review.id, members.create.id] });
      expect(res.status).toBe(200);
      assertMatchesSpec('0.130.0', 'post', REQUESTED_PATH, 200, res.body);
      assertMatchesSpec('0.202.0', 'post', REQUESTED_PATH, 200, res.body);
      expect(Object.keys(res.body)).toEqual(['users']);
      expect(res.body.users).toEqual([
        expect.objectContaining({ object: 'change-request-requested-reviewer', kind: 'user', user: expect.objectContaining({ id: members.review.id }) }),
        expect.objectContaining({ object: 'change-request-requested-reviewer', kind: 'user', user: expect.objectContaining({ id: members.create.id }) }),
      ]);
      for (const q of res.body.users) expect(q).toMatchObject({ revision: cr.revision, requestedBy: { object: 'user', id: members.edit.id }, createdAt: expect.any(String) });
      const list = await requested(as.read, spaceId, cr.id);
      expect(list.map((q) => q.user.id).sort()).toEqual([members.review.id, members.create.id].sort());
      expect(list).toEqual(expect.arrayContaining(res.body.users));
      // the change requests of the space filter on it
      const filtered = await as.read.get(`${CR(spaceId)}?requestedReviewer=${members.review.id}&limit=1000`);
      expect(filtered.body.items.map((c: Json) => c.id)).toContain(cr.id);
      const notAsked = await as.read.get(`${CR(spaceId)}?requestedReviewer=${members.read.id}&limit=1000`);
      expect(notAsked.body.items.map((c: Json) => c.id)).not.toContain(cr.id);
    });

    it('renames the change request when a subject is given', async () => {
      const cr = await changeRequest('Before');
      await request(as.edit, spaceId, cr.id, [members.review.id], 'Ready for review');
      const after = (await as.read.get(CR(spaceId, cr.id))).body;
      expect(after.subject).toBe('Ready for review');
      expect(after.updatedAt >= cr.updatedAt).toBe(true);
      await request(as.edit, spaceId, cr.id, [members.review.id]);
      expect((await as.read.get(CR(spaceId, cr.id))).body.subject).toBe('Ready for review');
    });

    it('refuses anyone who cannot review the space (400 naming them) and then requests nobody', async () => {
      const cr = await changeRequest();
      const outsider = await createUser(sut, 'outsider');
      const cannot: Array<[string, string]> = [
        ['edit member', members.edit.id],
        ['comment member', members.comment.id],
        ['read member', members.read.id],
        ['guest', members.guest.id],
        ['member of another organization', stranger.id],
        ['user of no organization', outsider.id],
        ['no such user', 'no-such-user'],
      ];
      for (const [who, id] of cannot) {
        const res = await as.edit.post(requestedOf(spaceId, cr.id), { users: [members.review.id, id], subject: 'Renamed?' });
        expect({ who, status: res.status }).toEqual({ who, status: 400 });
        assertErrorBody(400, res.body);
        expect(res.body.error.message).toContain(id);
        expect(res.body.error.message).not.toContain(members.review.id);
      }
      expect(await requested(as.read, spaceId, cr.id)).toEqual([]);
      expect((await as.read.get(CR(spaceId, cr.id))).body.subject).toBe(cr.subject);
    });

    it('refuses bad input with 400', async () => {
      const cr = await changeRequest();
      const bodies: unknown[] = [
        {},
        { users: [] },
        { users: 'x' },
        { users: [5] },
        { users: [''] },
        { users: Array.from({ length: 101 }, (_, i) => `user-${i}`) },
        { users: [members.review.id], subject: 'x'.repeat(101) },
        { users: [members.review.id], subject: 5 },
        { users: [members.review.id], extra: 1 },
        { users: [members.review.id], teams: ['t'] },
      ];
      for (const body of bodies) {
        const res = await as.edit.post(requestedOf(spaceId, cr.id), body);
        expect({ body, status: res.status }).toEqual({ body, status: 400 });
        assertErrorBody(400, res.body);
      }
      for (const query of ['limit=1001', 'page=garbage', 'limit=x']) {
        const res = await as.read.get(`${requestedOf(spaceId, cr.id)}?${query}`);
        expect({ query, status: res.status }).toEqual({ query, status: 400 });
      }
      expect(await requested(as.read, spaceId, cr.id)).toEqual([]);
    });

    it('renews a request made again instead of adding another', async () => {
      const cr = await changeRequest();
      const [first] = await request(as.edit, spaceId, cr.id, [members.review.id]);
      await new Promise((r) => setTimeout(r, 5));
      const [again] = await request(as.admin, spaceId, cr.id, [members.review.id, members.review.id]);
      expect(again.createdAt > first.createdAt).toBe(true);
      expect(again.requestedBy.id).toBe(members.admin.id);
      const list = await requested(as.read, spaceId, cr.id);
      expect(list).toEqual([again]);
    });

    it('keeps exactly one request per reviewer under 10 concurrent requests of the same reviewer', async () => {
      const cr = await changeRequest();
      const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? as.edit : as.admin).post(requestedOf(spaceId, cr.id), { users: [members.review.id] })));
      expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
      const list = await requested(as.read, spaceId, cr.id);
      expect(list.map((q) => q.user.id)).toEqual([members.review.id]);
    });

    it('pages through the requested reviewers', async () => {
      const cr = await changeRequest();
      for (const who of ['review', 'create', 'admin'] as const) await request(as.edit, spaceId, cr.id, [members[who].id]);
      const pages: number[] = [];
      const all = await walk<Json>(as.read, requestedOf(spaceId, cr.id), 2, (body) => {
        assertRequestedList(body);
        expect(body.count).toBe(3);
        pages.push(body.items.length);
      });
      expect(pages).toEqual([2, 1]);
      expect(all.map((q) => q.user.id)).toEqual([members.review.id, members.create.id, members.admin.id]);
    });

    it('removes a requested reviewer (205), then answers 204; needs the edit role and an unmerged change request', async () => {
      const cr = await changeRequest();
      await request(as.edit, spaceId, cr.id, [members.review.id, members.create.id]);
      for (const who of ['comment', 'read'] as const) {
        const res = await as[who].delete(`${requestedOf(spaceId, cr.id)}/${members.review.id}`);
        expect({ who, status: res.status }).toEqual({ who, status: 403 });
      }
      const removed = await as.edit.delete(`${requestedOf(spaceId, cr.id)}/${members.review.id}`);
      expect(removed.status).toBe(205);
      expect(removed.body).toBeUndefined();
      const again = await as.edit.delete(`${requestedOf(spaceId, cr.id)}/${members.review.id}`);
      expect(again.status).toBe(204);
      expect(again.body).toBeUndefined();
      expect((await as.edit.delete(`${requestedOf(spaceId, cr.id)}/never-asked`)).status).toBe(204);
      expect((await as.edit.delete(`${requestedOf(spaceId, 'no-such-change-request')}/${members.review.id}`)).status).toBe(404);
      expect((await requested(as.read, spaceId, cr.id)).map((q) => q.user.id)).toEqual([members.create.id]);

      await mergeChangeRequest(as.review, spaceId, cr.id);
      for (const res of [
        await as.edit.post(requestedOf(spaceId, cr.id), { users: [members.review.id] }),
        await as.edit.delete(`${requestedOf(spaceId, cr.id)}/${members.create.id}`),
      ]) {
        expect(res.status).toBe(409);
        assertErrorBody(409, res.body);
      }
      expect((await requested(as.read, spaceId, cr.id)).map((q) => q.user.id)).toEqual([members.create.id]);
    });

    it("drops a member's requests once they leave the organization", async () => {
      const cr = await changeRequest();
      const leaver = await createUser(sut, 'leaver');
      const invited = await as.admin.post(`/v1/orgs/${orgId}/invites`, { emails: [{ email: leaver.email, role: 'review' }] });
      expect(invited.status).toBe(200);
      // the member invited a moment ago may be asked at once
      await request(as.edit, spaceId, cr.id, [leaver.id, members.review.id]);
      expect((await requested(as.read, spaceId, cr.id)).map((q) => q.user.id).sort()).toEqual([leaver.id, members.review.id].sort());
      expect((await as.admin.delete(`/v1/orgs/${orgId}/members/${leaver.id}`)).status).toBe(204);
      // the requests go when change-requests consumes identity.member.removed (an event, so not at once)
      await eventually(async () => expect((await requested(as.read, spaceId, cr.id)).map((q) => q.user.id)).toEqual([members.review.id]));
      // asking them again is refused by content's view of the organization, which consumes the same event on
      // its own: within the second a revoked right may take to end
      await eventually(
        async () => {
          const res = await as.edit.post(requestedOf(spaceId, cr.id), { users: [leaver.id] });
          expect(res.status).toBe(400);
        },
        1000,
        50,
      );
    });
  });
});
