import { assertErrorBody, readEvents, SystemUnderTest } from '@bindery/shared/testing';
import { CR, mergeChangeRequest } from './change-request-fixtures';
import { Json } from './content-model-fixtures';
import { walk } from './http-client';
import { reviewsOf, requestedOf, assertReviewShape, assertReviewList, submit, request, reviews, writePage, reviewedSpace, ReviewedSpace } from './change-request-review-fixtures';

const TITLE = 'Reviewed';

describe('change request reviews through the gateway', () => {
  let sut: SystemUnderTest;
  let orgId: string;
  let members: ReviewedSpace['members'];
  let as: ReviewedSpace['as'];
  let spaceId: string;
  let changeRequest: ReviewedSpace['changeRequest'];

  beforeAll(async () => {
    ({ sut, orgId, members, as, spaceId, changeRequest } = await reviewedSpace(TITLE));
  });

  describe('reviews', () => {
    it('submits a review of the head (201, Location), readable by id and in the list, with the official shapes', async () => {
      const cr = await changeRequest();
      const res = await as.review.post(reviewsOf(spaceId, cr.id), { status: 'approved' });
      expect(res.status).toBe(201);
      assertReviewShape('post', 201, res.body);
      const review = res.body;
      expect(review).toMatchObject({
        object: 'change-request-review',
        revision: cr.revision,
        status: 'approved',
        outdated: false,
        reviewer: { object: 'user', id: members.review.id },
      });
      expect(review.requestedBy).toBeUndefined();
      expect(review.comment).toBeUndefined();
      expect(review.createdAt).toBe(review.updatedAt);
      expect(review.urls.location).toBe(`${sut.baseUrl}${reviewsOf(spaceId, cr.id)}/${review.id}`);
      expect(res.headers.get('location')).toBe(review.urls.location);

      const got = await as.read.get(`${reviewsOf(spaceId, cr.id)}/${review.id}`);
      expect(got.status).toBe(200);
      assertReviewShape('get', 200, got.body);
      expect(got.body).toEqual(review);
      // by number as well as by id
      expect((await as.read.get(`${reviewsOf(spaceId, String(cr.number))}/${review.id}`)).body).toEqual(review);
      expect(await reviews(as.read, spaceId, cr.id)).toEqual([review]);

      const emptyComment = await as.create.post(reviewsOf(spaceId, cr.id), { status: 'changes-requested', comment: {} });
      expect(emptyComment.status).toBe(201);
      expect(emptyComment.body.comment).toBeUndefined();
      expect((await reviews(as.read, spaceId, cr.id)).map((r) => [r.reviewer.id, r.status])).toEqual([
        [members.review.id, 'approved'],
        [members.create.id, 'changes-requested'],
      ]);
    });

    it('records the head the review was made against, which moves with later edits', async () => {
      const cr = await changeRequest();
      const first = await submit(as.review, spaceId, cr.id, { status: 'changes-requested' });
      const edited = await writePage(as.edit, spaceId, cr.id, 'Fixed');
      expect(edited.revision).not.toBe(cr.revision);
      const second = await submit(as.review, spaceId, cr.id, { status: 'approved' });
      expect(first.revision).toBe(cr.revision);
      expect(second.revision).toBe(edited.revision);
    });

    it('posts a comment given with the review as a comment on the change request that targets the review', async () => {
      const cr = await changeRequest();
      const before = (await as.read.get(CR(spaceId, cr.id))).body.comments as number;
      const review = await submit(as.review, spaceId, cr.id, { status: 'changes-requested', comment: { markdown: 'Please fix **the title**.' } });
      expect(review.comment).toMatchObject({
        object: 'comment',
        postedBy: { id: members.review.id },
        status: 'open',
        target: { space: spaceId, changeRequest: cr.id, revision: cr.revision, review: review.id },
      });
      expect(review.comment.body.document).toMatchObject({ object: 'document' });
      expect(JSON.stringify(review.comment.body.document)).toContain('the title');
      expect((await as.read.get(CR(spaceId, cr.id))).body.comments).toBe(before + 1);
      // the comment is one of the change request's comments
      const comment = await as.read.get(`${CR(spaceId, cr.id)}/comments/${review.comment.id}`);
      expect(comment.status).toBe(200);
      expect(comment.body).toMatchObject({ id: review.comment.id, target: { review: review.id } });

      // bodies in the format asked
      const [listed] = await reviews(as.read, spaceId, cr.id, '&format=markdown');
      expect(listed.comment.body).toEqual({ markdown: expect.stringContaining('Please fix **the title**.') });
      const one = await as.read.get(`${reviewsOf(spaceId, cr.id)}/${review.id}?format=markdown`);
      assertReviewShape('get', 200, one.body);
      expect(one.body.comment.body).toEqual(listed.comment.body);
      // permissions are the caller's: a reader may not edit the reviewer's comment; the reviewer reads their review as it was answered
      expect((await as.read.get(`${reviewsOf(spaceId, cr.id)}/${review.id}`)).body.comment.permissions).toMatchObject({ view: true, edit: false, delete: false });
      expect((await as.review.get(`${reviewsOf(spaceId, cr.id)}/${review.id}?format=document`)).body).toEqual(review);

      const withDocument = await submit(as.admin, spaceId, cr.id, { status: 'approved', comment: { document: review.comment.body.document } });
      expect(withDocument.comment.body.document).toEqual(review.comment.body.document);
      expect(withDocument.comment.target.review).toBe(withDocument.id);
    });

    it('names who requested the review when the reviewer had been asked', async () => {
      const cr = await changeRequest();
      await request(as.edit, spaceId, cr.id, [members.review.id]);
      const review = await submit(as.review, spaceId, cr.id, { status: 'approved' });
      expect(review.requestedBy).toMatchObject({ object: 'user', id: members.edit.id });
      const unasked = await submit(as.create, spaceId, cr.id, { status: 'approved' });
      expect(unasked.requestedBy).toBeUndefined();
    });

    it('marks a review outdated once the same reviewer reviews again or is asked again, and filters on it', async () => {
      const cr = await changeRequest();
      const first = await submit(as.review, spaceId, cr.id, { status: 'changes-requested' });
      const other = await submit(as.create, spaceId, cr.id, { status: 'approved' });
      const second = await submit(as.review, spaceId, cr.id, { status: 'approved' });
      const outdatedOf = async () => Object.fromEntries((await reviews(as.read, spaceId, cr.id)).map((r) => [r.id, r.outdated]));
      expect(await outdatedOf()).toEqual({ [first.id]: true, [other.id]: false, [second.id]: false });
      expect((await reviews(as.read, spaceId, cr.id, '&outdated=true')).map((r) => r.id)).toEqual([first.id]);
      expect((await reviews(as.read, spaceId, cr.id, '&outdated=false')).map((r) => r.id)).toEqual([other.id, second.id]);
      expect((await as.read.get(`${reviewsOf(spaceId, cr.id)}/${first.id}`)).body.outdated).toBe(true);

      // asking the reviewer again supersedes their latest review too
      await request(as.edit, spaceId, cr.id, [members.review.id]);
      expect(await outdatedOf()).toEqual({ [first.id]: true, [other.id]: false, [second.id]: true });
      expect((await as.read.get(`${reviewsOf(spaceId, cr.id)}/${second.id}`)).body.outdated).toBe(true);
      expect((await reviews(as.read, spaceId, cr.id, '&outdated=false')).map((r) => r.id)).toEqual([other.id]);
      // … until they review again
      const third = await submit(as.review, spaceId, cr.id, { status: 'approved' });
      expect(third.requestedBy).toMatchObject({ id: members.edit.id });
      expect((await reviews(as.read, spaceId, cr.id, '&outdated=false')).map((r) => r.id)).toEqual([other.id, third.id]);
    });

    it('pages through the reviews with keyset cursors, each visited once, count the whole (filtered) list', async () => {
      const cr = await changeRequest();
      const submitted: string[] = [];
      for (const who of ['admin', 'create', 'review', 'admin', 'create'] as const) submitted.push((await submit(as[who], spaceId, cr.id, { status: 'approved' })).id);
      const pages: number[] = [];
      const all = await walk<Json>(as.read, reviewsOf(spaceId, cr.id), 2, (body, cursor) => {
        assertReviewList(body);
        expect(body.count).toBe(5);
        pages.push(body.items.length);
        if (cursor === undefined) expect(body.next).toBeDefined();
      });
      expect(pages).toEqual([2, 2, 1]);
      expect(all.map((r) => r.id)).toEqual(submitted);
      const outdated = await walk<Json>(as.read, `${reviewsOf(spaceId, cr.id)}?outdated=true`, 1, (body) => expect(body.count).toBe(2));
      expect(outdated.map((r) => r.id)).toEqual([submitted[0], submitted[1]]);
      const last = await as.read.get(`${reviewsOf(spaceId, cr.id)}?limit=5`);
      expect(last.body.items).toHaveLength(5);
      expect(last.body.next).toBeUndefined();
      expect((await as.read.get(`${reviewsOf(spaceId, cr.id)}?limit=0`)).body.items).toHaveLength(5);
    });

    it('refuses bad input with 400', async () => {
      const cr = await changeRequest();
      const bodies: unknown[] = [
        {},
        { status: 'rejected' },
        { status: 'approved', extra: true },
        { status: 'approved', comment: 'Looks good' },
        { status: 'approved', comment: { markdown: 5 } },
        { status: 'approved', comment: { document: { object: 'block' } } },
        { status: 'approved', comment: { markdown: 'x', document: { object: 'document', data: {}, nodes: [] } } },
        { status: 'approved', comment: { text: 'x' } },
        { status: 'approved', comment: { markdown: 'x'.repeat(65537) } },
      ];
      for (const body of bodies) {
        const res = await as.review.post(reviewsOf(spaceId, cr.id), body);
        expect({ body, status: res.status }).toEqual({ body, status: 400 });
        assertErrorBody(400, res.body);
      }
      for (const query of ['format=html', 'outdated=maybe', 'limit=1001', 'limit=-1', 'page=garbage']) {
        const res = await as.read.get(`${reviewsOf(spaceId, cr.id)}?${query}`);
        expect({ query, status: res.status }).toEqual({ query, status: 400 });
        assertErrorBody(400, res.body);
      }
      expect((await as.read.get(`${reviewsOf(spaceId, cr.id)}/x?format=html`)).status).toBe(400);
      expect(await reviews(as.read, spaceId, cr.id)).toEqual([]);
    });

    it('needs the review role (403), a visible space (404) and a change request that is open or a draft (409)', async () => {
      const cr = await changeRequest();
      for (const who of ['edit', 'comment', 'read'] as const) {
        const res = await as[who].post(reviewsOf(spaceId, cr.id), { status: 'approved' });
        expect({ who, status: res.status }).toEqual({ who, status: 403 });
        assertErrorBody(403, res.body);
      }
      for (const who of ['guest', 'stranger'] as const) expect((await as[who].post(reviewsOf(spaceId, cr.id), { status: 'approved' })).status).toBe(404);
      expect((await as.review.post(reviewsOf(spaceId, 'no-such-change-request'), { status: 'approved' })).status).toBe(404);
      expect((await as.read.get(`${reviewsOf(spaceId, cr.id)}/no-such-review`)).status).toBe(404);
      // a review of another change request is not found under this one
      const other = await changeRequest('Other');
      const elsewhere = await submit(as.review, spaceId, other.id, { status: 'approved' });
      expect((await as.read.get(`${reviewsOf(spaceId, cr.id)}/${elsewhere.id}`)).status).toBe(404);

      expect((await as.edit.patch(CR(spaceId, cr.id), { status: 'draft' })).status).toBe(200);
      await submit(as.review, spaceId, cr.id, { status: 'approved' });
      expect((await as.edit.patch(CR(spaceId, cr.id), { status: 'archived' })).status).toBe(200);
      const archived = await as.review.post(reviewsOf(spaceId, cr.id), { status: 'approved', comment: { markdown: 'Too late.' } });
      expect(archived.status).toBe(409);
      assertErrorBody(409, archived.body);
      expect((await as.edit.patch(CR(spaceId, cr.id), { status: 'open' })).status).toBe(200);
      await mergeChangeRequest(as.review, spaceId, cr.id);
      const merged = await as.review.post(reviewsOf(spaceId, cr.id), { status: 'approved', comment: { markdown: 'Too late.' } });
      expect(merged.status).toBe(409);
      assertErrorBody(409, merged.body);
      // refused reviews leave no review and no comment behind; the earlier ones stay readable
      expect(await reviews(as.read, spaceId, cr.id)).toHaveLength(1);
      expect((await as.read.get(CR(spaceId, cr.id))).body.comments).toBe(0);
    });
  });

  it('publishes what happened: reviewer requested and removed, review submitted with its comment', async () => {
    const cr = await changeRequest();
    await request(as.edit, spaceId, cr.id, [members.review.id]);
    const review = await submit(as.review, spaceId, cr.id, { status: 'approved', comment: { markdown: 'Good.' } });
    expect((await as.edit.delete(`${requestedOf(spaceId, cr.id)}/${members.review.id}`)).status).toBe(205);
    const wanted = ['change_requests.reviewer.requested', 'change_requests.review.submitted', 'change_requests.comment.created', 'change_requests.reviewer.removed'];
    const ours = (evs: Array<{ data: unknown; type: string }>) => evs.filter((e) => (e.data as Json).changeRequestId === cr.id);
    const events = ours(
      await readEvents(sut.env.KAFKA_BROKERS.split(','), `${sut.env.KAFKA_NAMESPACE}bindery.change-requests.v1`, (evs) => wanted.every((t) => ours(evs).some((e) => e.type === t))),
    );
    const scope = { organizationId: orgId, spaceId, changeRequestId: cr.id };
    const of = (type: string) => events.filter((e) => e.type === type).map((e) => e.data);
    expect(of('change_requests.reviewer.requested')).toEqual([{ ...scope, userId: members.review.id, actor: members.edit.id }]);
    expect(of('change_requests.review.submitted')).toEqual([{ ...scope, reviewId: review.id, status: 'approved', reviewer: members.review.id }]);
    expect(of('change_requests.comment.created')).toEqual([{ ...scope, commentId: review.comment.id, actor: members.review.id }]);
    expect(of('change_requests.reviewer.removed')).toEqual([{ ...scope, userId: members.review.id, actor: members.edit.id }]);
  });
});
