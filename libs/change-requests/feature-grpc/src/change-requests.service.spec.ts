import { randomBytes } from 'node:crypto';
import { connectChangeRequests } from '@bindery/change-requests/client';
import { startServiceUnderTest, ServiceUnderTest } from '@bindery/shared/testing';
import { bodyFromMessage, bodyToMessage, changeRequestsV1, documentFromMessage, documentToMessage } from '@bindery/shared/contracts';
import type { ChangeRequestsDeps } from './deps';
import { changeRequestsServiceWith } from './change-requests-server';
import { ContentStandIn } from './testing/content-stand-in';

const hex = () => randomBytes(4).toString('hex');
const who = (userId: string) => ({ caller: { userId, isInstanceAdmin: false } });
const markdown = (text: string) => ({ markdown: text });
const pbList = (spaceId: string) => changeRequestsV1.ListChangeRequestsRequest.fromPartial({ spaceId });

/**
 * The service tier of change-requests: its gRPC services in process on a real MongoDB and Kafka,
 * with content (spaces, roles, revisions) as an in-memory stand-in and a clock the tests move.
 */
describe('change-requests service (in process, real MongoDB and Kafka)', () => {
  const content = new ContentStandIn();
  let now = Date.parse('2026-03-01T09:00:00.000Z');
  let service: ServiceUnderTest<ChangeRequestsDeps>;
  let clients: ReturnType<typeof connectChangeRequests>;

  beforeAll(async () => {
    service = await startServiceUnderTest(
      changeRequestsServiceWith(
        () => content.clients(),
        () => now,
      ),
    );
    clients = connectChangeRequests(service.address, 5000);
  });
  afterAll(async () => {
    clients?.close();
    await service?.stop();
  });

  /** A space with an editor, a reviewer, a commenter and a reader; answers its id. */
  function newSpace(pages: string[] = ['home']): string {
    const spaceId = `space-${hex()}`;
    content.addSpace(spaceId, 'org-1', { ed: 'edit', rev: 'review', com: 'comment', rea: 'read' }, pages);
    return spaceId;
  }
  const ref = (spaceId: string, changeRequest: string) => ({ spaceId, changeRequest });

  test('an editor opens a change request on the current revision; edits move its head; a reviewer approves and merges it', async () => {
    const spaceId = newSpace();
    const base = content.currentRevision(spaceId);
    const cr = await clients.changeRequests.createChangeRequest({ spaceId, subject: '  Add a guide  ' }, who('ed'));
    expect(cr).toMatchObject({ number: 1, status: 'open', subject: 'Add a guide', createdBy: 'ed', revision: base, revisionInitial: base, outdated: false, comments: 0 });
    expect((await clients.changeRequests.createChangeRequest({ spaceId }, who('ed'))).number).toBe(2);

    now += 60_000;
    const edited = await clients.changeRequests.updateContent({ ref: ref(spaceId, cr.id), changesJson: JSON.stringify(['guide']) }, who('ed'));
    expect(edited.changeRequest).toMatchObject({ revision: expect.not.stringMatching(base), updatedAt: '2026-03-01T09:01:00.000Z' });
    expect(content.pagesOf(edited.changeRequest!.revision)).toEqual(['home', 'guide']);

    const review = await clients.changeRequests.submitReview({ ref: ref(spaceId, String(cr.number)), status: 'approved', comment: undefined }, who('rev'));
    expect(review).toMatchObject({ status: 'approved', reviewer: 'rev' });

    const merged = await clients.changeRequests.merge(ref(spaceId, cr.id), who('rev'));
    expect(merged.result).toBe('merge');
    expect(content.currentRevision(spaceId)).toBe(merged.revision);
    expect(content.pagesOf(merged.revision)).toEqual(['home', 'guide']);
    expect(await clients.changeRequests.getChangeRequest(ref(spaceId, cr.id), who('rea'))).toMatchObject({ status: 'merged', mergedBy: 'rev', revisionMerged: merged.revision });
  });

  test('who may do what: readers read, editors open and edit, only reviewers merge', async () => {
    const spaceId = newSpace();
    await expect(clients.changeRequests.createChangeRequest({ spaceId }, who('rea'))).rejects.toMatchObject({ kind: 'forbidden' });
    const cr = await clients.changeRequests.createChangeRequest({ spaceId }, who('ed'));
    expect(await clients.changeRequests.getChangeRequest(ref(spaceId, cr.id), who('rea'))).toMatchObject({ id: cr.id });
    await expect(
      clients.changeRequests.updateChangeRequest({ ref: ref(spaceId, cr.id), description: undefined, clearDescription: false, subject: 'Mine now' }, who('com')),
    ).rejects.toMatchObject({ kind: 'forbidden' });
    await expect(clients.changeRequests.merge(ref(spaceId, cr.id), who('ed'))).rejects.toMatchObject({ kind: 'forbidden' });
    await expect(clients.changeRequests.submitReview({ ref: ref(spaceId, cr.id), status: 'approved', comment: undefined }, who('com'))).rejects.toMatchObject({
      kind: 'forbidden',
    });
  });

  test('a change request of a space the caller cannot read is not found, as one that does not exist', async () => {
    const spaceId = newSpace();
    const cr = await clients.changeRequests.createChangeRequest({ spaceId, subject: 'Hidden' }, who('ed'));
    const outsider = clients.changeRequests.getChangeRequest(ref(spaceId, cr.id), who('stranger'));
    await expect(outsider).rejects.toMatchObject({ kind: 'not_found' });
    await expect(clients.changeRequests.getChangeRequest(ref(spaceId, 'no-such-id'), who('rea'))).rejects.toMatchObject({ kind: 'not_found' });
    await expect(
      clients.comments.listComments({ changeRequest: ref(spaceId, cr.id), order: '', format: '', status: '', targetPage: '', authors: [], page: undefined }, who('stranger')),
    ).rejects.toMatchObject({
      kind: 'not_found',
    });
  });

  test('a site token reads a merged change request of its spaces only; an open one is not there for it, and nothing else is open to it', async () => {
    const spaceId = `space-${hex()}`;
    // content gives a site token the reader's role on its spaces: the stand-in has it as the token's caller id
    content.addSpace(spaceId, 'org-1', { ed: 'edit', rev: 'review', 'site:tok-1': 'read' }, ['home']);
    const site = { caller: { userId: 'site:tok-1', isInstanceAdmin: false, site: { organizationId: 'org-1', siteId: 'site-1', spaceIds: [spaceId], tokenId: 'tok-1' } } };
    const cr = await clients.changeRequests.createChangeRequest({ spaceId, subject: 'Guide' }, who('ed'));
    await clients.changeRequests.updateContent({ ref: ref(spaceId, cr.id), changesJson: JSON.stringify(['guide']) }, who('ed'));
    await expect(clients.changeRequests.getChangeRequest(ref(spaceId, cr.id), site)).rejects.toMatchObject({ kind: 'not_found' });
    await expect(clients.changeRequests.listChangeRequests(pbList(spaceId), site)).rejects.toMatchObject({
      kind: 'forbidden',
    });
    const merged = await clients.changeRequests.merge(ref(spaceId, cr.id), who('rev'));
    expect(await clients.changeRequests.getChangeRequest(ref(spaceId, cr.id), site)).toMatchObject({ id: cr.id, status: 'merged', revisionMerged: merged.revision });
    await expect(
      clients.changeRequests.updateChangeRequest({ ref: ref(spaceId, cr.id), description: undefined, subject: 'Mine', clearDescription: false }, site),
    ).rejects.toMatchObject({
      kind: 'forbidden',
    });
  });

  test('archiving closes a change request to edits until it is reopened; a merged one is read-only', async () => {
    const spaceId = newSpace();
    const cr = await clients.changeRequests.createChangeRequest({ spaceId, subject: 'Draft idea' }, who('ed'));
    // merged only by merging
    await expect(
      clients.changeRequests.updateChangeRequest({ ref: ref(spaceId, cr.id), description: undefined, clearDescription: false, status: 'merged' }, who('ed')),
    ).rejects.toMatchObject({ kind: 'invalid' });
    const archived = await clients.changeRequests.updateChangeRequest({ ref: ref(spaceId, cr.id), description: undefined, clearDescription: false, status: 'archived' }, who('ed'));
    expect(archived.status).toBe('archived');
    const list = (statuses: string[]) =>
      clients.changeRequests.listChangeRequests(
        { spaceId, organizationId: '', statuses, orderBy: '', creator: '', contributor: '', requestedReviewer: '', space: '', page: undefined },
        who('rea'),
      );
    expect((await list([])).items.map((c) => c.id)).toEqual([]);
    expect((await list(['archived'])).items.map((c) => c.id)).toEqual([cr.id]);
    await expect(clients.changeRequests.updateContent({ ref: ref(spaceId, cr.id), changesJson: '["x"]' }, who('ed'))).rejects.toMatchObject({ kind: 'conflict' });
    await expect(clients.changeRequests.merge(ref(spaceId, cr.id), who('rev'))).rejects.toMatchObject({ kind: 'conflict' });

    await clients.changeRequests.updateChangeRequest({ ref: ref(spaceId, cr.id), description: undefined, clearDescription: false, status: 'open' }, who('ed'));
    await clients.changeRequests.updateContent({ ref: ref(spaceId, cr.id), changesJson: '["x"]' }, who('ed'));
    expect((await clients.changeRequests.merge(ref(spaceId, cr.id), who('rev'))).result).toBe('merge');
    await expect(
      clients.changeRequests.updateChangeRequest({ ref: ref(spaceId, cr.id), description: undefined, clearDescription: false, subject: 'After the fact' }, who('ed')),
    ).rejects.toMatchObject({ kind: 'conflict' });
    await expect(clients.changeRequests.merge(ref(spaceId, cr.id), who('rev'))).rejects.toMatchObject({ kind: 'conflict' });
  });

  test('a change request behind the space is outdated; overlapping edits merge as conflicts and change nothing', async () => {
    const spaceId = newSpace();
    const cr = await clients.changeRequests.createChangeRequest({ spaceId }, who('ed'));
    await clients.changeRequests.updateContent({ ref: ref(spaceId, cr.id), changesJson: '["faq"]' }, who('ed'));
    const spaceRevision = content.editSpace(spaceId, ['faq']);
    expect((await clients.changeRequests.getChangeRequest(ref(spaceId, cr.id), who('rea'))).outdated).toBe(true);

    const attempt = await clients.changeRequests.merge(ref(spaceId, cr.id), who('rev'));
    expect(attempt).toMatchObject({ result: 'conflicts', conflicts: [{ kind: 'page', page: 'faq' }] });
    expect(content.currentRevision(spaceId)).toBe(spaceRevision);
    expect((await clients.changeRequests.getChangeRequest(ref(spaceId, cr.id), who('rea'))).status).toBe('open');
  });

  test('comments: posted on a page of the head or on the change request, counted while open, answered by replies', async () => {
    const spaceId = newSpace(['home', 'intro']);
    const cr = await clients.changeRequests.createChangeRequest({ spaceId }, who('ed'));
    const c = ref(spaceId, cr.id);
    const onPage = await clients.comments.postComment({ changeRequest: c, body: markdown('Typo in the intro'), page: 'intro', node: '', format: 'markdown' }, who('com'));
    expect(onPage).toMatchObject({ postedBy: 'com', page: 'intro', targetPage: { id: 'intro', outdated: false } });
    now += 1000;
    await clients.comments.postComment({ changeRequest: c, body: markdown('Looks good overall'), page: '', node: '', format: 'markdown' }, who('rev'));
    await expect(clients.comments.postComment({ changeRequest: c, body: markdown('Where?'), page: 'missing', node: '', format: 'markdown' }, who('com'))).rejects.toMatchObject({
      kind: 'invalid',
    });
    await expect(clients.comments.postComment({ changeRequest: c, body: markdown('Lurking'), page: '', node: '', format: 'markdown' }, who('rea'))).rejects.toMatchObject({
      kind: 'forbidden',
    });

    const reply = await clients.comments.postReply({ comment: { changeRequest: c, commentId: onPage.id, format: 'markdown' }, body: markdown('Fixed') }, who('ed'));
    expect(reply).toMatchObject({ postedBy: 'ed' });
    const listed = await clients.comments.listComments(
      { changeRequest: c, order: 'asc', format: 'markdown', status: '', targetPage: '', authors: [], page: undefined },
      who('rea'),
    );
    expect(listed.items.map((x) => [x.postedBy, x.replies])).toEqual([
      ['com', 1],
      ['rev', 0],
    ]);
    expect((await clients.changeRequests.getChangeRequest(c, who('rea'))).comments).toBe(2);
  });

  test('documents cross as messages and come back as they were sent, field order and unusual fields included', async () => {
    const spaceId = newSpace();
    const cr = await clients.changeRequests.createChangeRequest({ spaceId }, who('ed'));
    const c = ref(spaceId, cr.id);
    const text = { leaves: [{ object: 'leaf', text: 'Why', marks: [{ object: 'mark', type: 'bold' }] }], object: 'text', key: 't1' };
    const description = {
      object: 'document',
      data: { schemaVersion: 1 },
      nodes: [{ object: 'block', type: 'paragraph', data: {}, nodes: [text], isVoid: false, meta: { from: 'x' } }],
    };
    const update = { ref: c, description: documentToMessage(description), clearDescription: false };
    const described = await clients.changeRequests.updateChangeRequest(update, who('ed'));
    expect(JSON.stringify(documentFromMessage(described.description!))).toBe(JSON.stringify(description));
    const read = await clients.changeRequests.getChangeRequest(c, who('rea'));
    expect(JSON.stringify(documentFromMessage(read.description!))).toBe(JSON.stringify(description));
    const cleared = await clients.changeRequests.updateChangeRequest({ ref: c, description: undefined, clearDescription: true }, who('ed'));
    expect(cleared.description).toBeUndefined();

    const body = bodyToMessage({ document: description });
    const posted = await clients.comments.postComment({ changeRequest: c, body, page: '', node: '', format: '' }, who('com'));
    expect(JSON.stringify(bodyFromMessage(posted.body!))).toBe(JSON.stringify({ document: description }));
    const asMarkdown = await clients.comments.getComment({ changeRequest: c, commentId: posted.id, format: 'markdown' }, who('rea'));
    expect(bodyFromMessage(asMarkdown.body!)).toEqual({ markdown: expect.stringContaining('**Why**') });
    const review = await clients.changeRequests.submitReview({ ref: c, status: 'approved', comment: body }, who('rev'));
    expect(JSON.stringify(bodyFromMessage(review.comment!.body!))).toBe(JSON.stringify({ document: description }));
  });
});
