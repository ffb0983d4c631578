import { assertErrorBody, readEvents, sharedSystem, SystemUnderTest } from '@bindery/shared/testing';
import {
  changeContent,
  commentPath,
  commentsPath,
  crPath,
  expectStatus,
  insertPages,
  Json,
  official,
  openChangeRequest,
  postComment,
  postReply,
  replyPath,
  repliesPath,
  SPEC,
} from './change-request-comment-fixtures';
import { createSpace, unknownId } from './content-fixtures';
import { organizationWithEveryRole, RoleName, TestUser } from './fixtures';
import { Client, http, walk } from './http-client';

const MARKDOWN = 'Looks **good**, but see [the guide](https://example.com/guide).';

describe('change request comments and replies through the gateway', () => {
  let sut: SystemUnderTest;
  let users: Record<RoleName, TestUser>;
  let as: Record<RoleName, Client>;
  let spaceId: string;

  /** A change request opened by the admin, with these pages in its head. */
  const changeRequest = async (pages: string[] = []) => {
    const cr = await openChangeRequest(as.admin, spaceId);
    const ids = pages.length ? await insertPages(as.admin, spaceId, cr.id, pages) : [];
    const head = expectStatus('get change request', await as.admin.get(crPath(spaceId, cr.id)), 200).body;
    return { id: cr.id as string, number: cr.number as number, revision: head.revision as string, pages: ids };
  };
  const getComment = async (client: Client, crId: string, id: string, query = '') => official(await client.get(`${commentPath(spaceId, crId, id)}${query}`), 'get', SPEC.comment);
  const putComment = async (client: Client, crId: string, id: string, body: Json) => official(await client.put(commentPath(spaceId, crId, id), body), 'put', SPEC.comment);
  const list = async (crId: string, query = '') => official(await as.read.get(`${commentsPath(spaceId, crId)}${query}`), 'get', SPEC.comments);
  const ids = (body: Json) => body.items.map((c: Json) => c.id);

  beforeAll(async () => {
    sut = await sharedSystem();
    const org = await organizationWithEveryRole(sut);
    users = org.members;
    as = Object.fromEntries(Object.entries(users).map(([role, u]) => [role, http(sut.baseUrl, u.token)])) as Record<RoleName, Client>;
    spaceId = (await createSpace(as.admin, org.orgId, { title: 'Discussed' })).id;
  });

  it('posts a comment in markdown and reads it back as a document and as markdown; documents and empty bodies round trip', async () => {
    const cr = await changeRequest();
    const posted = await postComment(as.comment, spaceId, cr.id, { body: { markdown: MARKDOWN } });
    expect(posted).toMatchObject({
      object: 'comment',
      postedBy: { id: users.comment.id },
      status: 'open',
      replies: 0,
      repliers: [],
      reactions: [],
      target: { space: spaceId, revision: cr.revision, changeRequest: cr.id },
      permissions: { view: true, edit: true, reply: true, delete: true },
    });
    expect(posted.urls.location).toBe(`${sut.baseUrl}${commentPath(spaceId, cr.id, posted.id)}`);
    expect(posted.body.document.object).toBe('document');
    expect(posted.editedAt).toBeUndefined();
    expect(posted.target.page).toBeUndefined();

    expect((await getComment(as.read, cr.id, posted.id)).body).toEqual(posted.body);
    const markdown = (await getComment(as.read, cr.id, posted.id, '?format=markdown')).body;
    expect(markdown).toEqual({ markdown: expect.any(String) });
    expect(markdown.markdown.trim()).toBe(MARKDOWN);
    // by number too
    expect((await getComment(as.read, String(cr.number), posted.id)).id).toBe(posted.id);

    // the answer of a post in markdown
    const asMarkdown = official(await as.comment.post(`${commentsPath(spaceId, cr.id)}?format=markdown`, { body: { markdown: 'Plain.' } }), 'post', SPEC.comments);
    expect(asMarkdown.body.markdown.trim()).toBe('Plain.');

    // a document in, the same document out, and the same markdown
    const fromDocument = await postComment(as.comment, spaceId, cr.id, { body: { document: posted.body.document } });
    expect((await getComment(as.read, cr.id, fromDocument.id, '?format=document')).body).toEqual({ document: posted.body.document });
    expect((await getComment(as.read, cr.id, fromDocument.id, '?format=markdown')).body).toEqual(markdown);

    // nothing in: an empty document
    const empty = await postComment(as.comment, spaceId, cr.id, { body: {} });
    expect(empty.body).toEqual({ document: { object: 'document', data: {}, nodes: [] } });
    expect((await getComment(as.read, cr.id, empty.id, '?format=markdown')).body.markdown.trim()).toBe('');

    // what other callers may do with it
    expect((await getComment(as.edit, cr.id, posted.id)).permissions).toEqual({ view: true, edit: false, reply: true, react: true, delete: false });
    expect((await getComment(as.read, cr.id, posted.id)).permissions).toEqual({ view: true, edit: false, reply: false, react: false, delete: false });
    expect((await getComment(as.admin, cr.id, posted.id)).permissions).toEqual({ view: true, edit: false, reply: true, react: true, delete: true });
  });

  it('targets a page of the head and a node; refuses a page the head lacks; marks the target outdated once the change request deletes the page', async () => {
    const cr = await changeRequest(['Guide', 'Install']);
    const [guide, install] = cr.pages;
    const onPage = await postComment(as.comment, spaceId, cr.id, { body: { markdown: 'On the guide.' }, page: guide, node: 'block-7' });
    expect(onPage.target).toEqual({
      space: spaceId,
      revision: cr.revision,
      changeRequest: cr.id,
      page: { id: guide, title: 'Guide', path: 'guide', outdated: false },
      node: { id: 'block-7' },
    });

    const missing = await as.comment.post(commentsPath(spaceId, cr.id), { body: { markdown: 'Nowhere.' }, page: unknownId() });
    expect(missing.status).toBe(400);
    assertErrorBody(400, missing.body);

    const onInstall = await postComment(as.comment, spaceId, cr.id, { body: { markdown: 'On install.' }, page: install });
    await changeContent(as.admin, spaceId, cr.id, [{ operation: 'delete_page', page: install }]);
    const after = await getComment(as.read, cr.id, onInstall.id);
    expect(after.target.page).toEqual({ id: install, title: 'Install', path: 'install', outdated: true });
    expect(after.target.revision).toBe(cr.revision);
    expect((await getComment(as.read, cr.id, onPage.id)).target.page.outdated).toBe(false);
  });

  it('lists comments by status, target page and authors, newest or oldest first', async () => {
    const cr = await changeRequest(['One', 'Two']);
    const [one, two] = cr.pages;
    const a = await postComment(as.comment, spaceId, cr.id, { body: { markdown: 'a' }, page: one });
    const b = await postComment(as.edit, spaceId, cr.id, { body: { markdown: 'b' }, page: two });
    const c = await postComment(as.admin, spaceId, cr.id, { body: { markdown: 'c' } });
    const d = await postComment(as.comment, spaceId, cr.id, { body: { markdown: 'd' } });
    const f = await postComment(as.review, spaceId, cr.id, { body: { markdown: 'f' }, page: one });
    await putComment(as.comment, cr.id, b.id, { resolved: true });

    const all = await list(cr.id);
    expect({ ids: ids(all), count: all.count, next: all.next }).toEqual({ ids: [f.id, d.id, c.id, b.id, a.id], count: 5, next: undefined });
    expect(ids(await list(cr.id, '?order=desc&status=all'))).toEqual([f.id, d.id, c.id, b.id, a.id]);
    expect(ids(await list(cr.id, '?order=asc'))).toEqual([a.id, b.id, c.id, d.id, f.id]);
    const open = await list(cr.id, '?status=open');
    expect({ ids: ids(open), count: open.count }).toEqual({ ids: [f.id, d.id, c.id, a.id], count: 4 });
    const resolved = await list(cr.id, '?status=resolved');
    expect({ ids: ids(resolved), count: resolved.count }).toEqual({ ids: [b.id], count: 1 });
    expect(ids(await list(cr.id, `?targetPage=${one}`))).toEqual([f.id, a.id]);
    expect((await list(cr.id, `?targetPage=${two}&status=open`)).count).toBe(0);
    expect(ids(await list(cr.id, `?authors=${users.comment.id}`))).toEqual([d.id, a.id]);
    expect(ids(await list(cr.id, `?authors=${users.comment.id}&authors=${users.edit.id}&order=asc`))).toEqual([a.id, b.id, d.id]);
    expect((await list(cr.id, `?authors=${unknownId()}`)).count).toBe(0);
    const markdown = await list(cr.id, '?format=markdown&order=asc');
    expect(markdown.items.map((x: Json) => x.body.markdown.trim())).toEqual(['a', 'b', 'c', 'd', 'f']);
    // the change request counts its open comments
    expect(expectStatus('get change request', await as.read.get(crPath(spaceId, cr.id)), 200).body.comments).toBe(4);
  });

  it('pages through comments with keyset cursors, each once, count on every page', async () => {
    const cr = await changeRequest();
    const posted: string[] = [];
    for (let i = 0; i < 7; i++) posted.push((await postComment(i % 2 ? as.comment : as.admin, spaceId, cr.id, { body: { markdown: `Comment ${i}` } })).id);
    for (const order of ['desc', 'asc'] as const) {
      const sizes: number[] = [];
      const seen = await walk<Json>(as.read, `${commentsPath(spaceId, cr.id)}?order=${order}`, 3, (body, cursor) => {
        official({ status: 200, body, headers: new Headers() }, 'get', SPEC.comments);
        expect(body.count).toBe(7);
        sizes.push(body.items.length);
        if (cursor === undefined) expect(body.next).toBeDefined();
      });
      expect(sizes).toEqual([3, 3, 1]);
      expect(seen.map((c) => c.id)).toEqual(order === 'asc' ? posted : [...posted].reverse());
    }
  });

  it('keeps a comment’s replies and repliers true as replies come and go', async () => {
    const cr = await changeRequest();
    const comment = await postComment(as.admin, spaceId, cr.id);
    const r1 = await postReply(as.comment, spaceId, cr.id, comment.id, 'First.');
    const r2 = await postReply(as.comment, spaceId, cr.id, comment.id, 'Second.');
    const r3 = await postReply(as.edit, spaceId, cr.id, comment.id, 'Third.');
    expect(r1).toMatchObject({ object: 'comment-reply', postedBy: { id: users.comment.id }, reactions: [], permissions: { view: true, edit: true, reply: true, delete: true } });
    expect(r1.urls.location).toBe(`${sut.baseUrl}${replyPath(spaceId, cr.id, comment.id, r1.id)}`);

    let seen = await getComment(as.read, cr.id, comment.id);
    expect(seen.replies).toBe(3);
    expect(seen.repliers.map((r: Json) => [r.user.id, r.count, r.updatedAt])).toEqual([
      [users.comment.id, 2, r2.postedAt],
      [users.edit.id, 1, r3.postedAt],
    ]);
    const replies = official(await as.read.get(repliesPath(spaceId, cr.id, comment.id)), 'get', SPEC.replies);
    expect({ ids: ids(replies), count: replies.count }).toEqual({ ids: [r1.id, r2.id, r3.id], count: 3 });
    const firstPage = official(await as.read.get(`${repliesPath(spaceId, cr.id, comment.id)}?limit=2`), 'get', SPEC.replies);
    expect({ ids: ids(firstPage), count: firstPage.count }).toEqual({ ids: [r1.id, r2.id], count: 3 });
    const secondPage = official(await as.read.get(`${repliesPath(spaceId, cr.id, comment.id)}?limit=2&page=${firstPage.next.page}`), 'get', SPEC.replies);
    expect({ ids: ids(secondPage), next: secondPage.next }).toEqual({ ids: [r3.id], next: undefined });
    const asMarkdown = official(await as.read.get(`${replyPath(spaceId, cr.id, comment.id, r1.id)}?format=markdown`), 'get', SPEC.reply);
    expect(asMarkdown.body.markdown.trim()).toBe('First.');
    expect(official(await as.read.get(replyPath(spaceId, cr.id, comment.id, r1.id)), 'get', SPEC.reply).body.document.object).toBe('document');

    // bodies: their authors only; reactions: commenters
    expect((await as.edit.put(replyPath(spaceId, cr.id, comment.id, r1.id), { body: { markdown: 'Not mine.' } })).status).toBe(403);
    const edited = official(await as.comment.put(replyPath(spaceId, cr.id, comment.id, r1.id), { body: { markdown: 'First, edited.' } }), 'put', SPEC.reply);
    expect(edited.editedAt).toEqual(expect.any(String));
    const reacted = official(await as.edit.put(replyPath(spaceId, cr.id, comment.id, r1.id), { addedReactions: ['👍'] }), 'put', SPEC.reply);
    expect(reacted.reactions.map((r: Json) => [r.emoji, r.count, r.users.map((u: Json) => u.user.id)])).toEqual([['👍', 1, [users.edit.id]]]);
    expect((await as.read.put(replyPath(spaceId, cr.id, comment.id, r1.id), { addedReactions: ['👍'] })).status).toBe(403);

    // deletions: the author or an admin, once
    expect((await as.edit.delete(replyPath(spaceId, cr.id, comment.id, r2.id))).status).toBe(403);
    official(await as.comment.delete(replyPath(spaceId, cr.id, comment.id, r2.id)), 'delete', SPEC.reply, 205);
    official(await as.comment.delete(replyPath(spaceId, cr.id, comment.id, r2.id)), 'delete', SPEC.reply, 204);
    expect((await as.read.get(replyPath(spaceId, cr.id, comment.id, r2.id))).status).toBe(404);
    seen = await getComment(as.read, cr.id, comment.id);
    expect(seen.replies).toBe(2);
    expect(seen.repliers.map((r: Json) => [r.user.id, r.count, r.updatedAt])).toEqual([
      [users.comment.id, 1, r1.postedAt],
      [users.edit.id, 1, r3.postedAt],
    ]);
    official(await as.admin.delete(replyPath(spaceId, cr.id, comment.id, r3.id)), 'delete', SPEC.reply, 205);
    seen = await getComment(as.read, cr.id, comment.id);
    expect({ replies: seen.replies, repliers: seen.repliers.map((r: Json) => [r.user.id, r.count]) }).toEqual({ replies: 1, repliers: [[users.comment.id, 1]] });
    const left = official(await as.read.get(repliesPath(spaceId, cr.id, comment.id)), 'get', SPEC.replies);
    expect({ ids: ids(left), count: left.count }).toEqual({ ids: [r1.id], count: 1 });
  });

  it('declares the reactions it refuses: one holding a NUL character is refused (400) and outside the served schema', async () => {
    const cr = await changeRequest();
    const comment = await postComment(as.admin, spaceId, cr.id);
    const reply = expectStatus('post reply', await as.admin.post(repliesPath(spaceId, cr.id, comment.id), { body: { markdown: 'An answer.' } }), 200).body;
    const nul = 'ok\u0000';
    for (const path of [commentPath(spaceId, cr.id, comment.id), replyPath(spaceId, cr.id, comment.id, reply.id)])
      for (const field of ['addedReactions', 'removedReactions']) {
        const res = await as.admin.put(path, { [field]: [nul] });
        expect([path, field, res.status]).toEqual([path, field, 400]);
      }
    // the fuzzer found such requests valid by the served document: its reaction pattern leaves out NUL now
    const doc = expectStatus('openapi', await as.read.get('/openapi.json'), 200).body;
    const template = '/v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments/{commentId}';
    for (const path of [template, `${template}/replies/{commentReplyId}`])
      for (const field of ['addedReactions', 'removedReactions']) {
        const item = doc.paths[path].put.requestBody.content['application/json'].schema.properties[field].items;
        expect([path, field, new RegExp(item.pattern, 'u').test(nul), new RegExp(item.pattern, 'u').test('👍')]).toEqual([path, field, false, true]);
      }
  });

  it('adds and removes reactions: one per user and emoji, counted, with who reacted', async () => {
    const cr = await changeRequest();
    const comment = await postComment(as.admin, spaceId, cr.id);
    const summary = (c: Json) => c.reactions.map((r: Json) => [r.emoji, r.count, r.users.map((u: Json) => u.user.id)]);
    let c = await putComment(as.comment, cr.id, comment.id, { addedReactions: ['👍', '🎉'] });
    expect(summary(c)).toEqual([
      ['👍', 1, [users.comment.id]],
      ['🎉', 1, [users.comment.id]],
    ]);
    expect(c.reactions[0].users[0].reactedAt).toEqual(expect.any(String));
    c = await putComment(as.edit, cr.id, comment.id, { addedReactions: ['👍'] });
    expect(summary(c)[0]).toEqual(['👍', 2, [users.comment.id, users.edit.id]]);
    c = await putComment(as.comment, cr.id, comment.id, { addedReactions: ['👍'] });
    expect(summary(c)[0]).toEqual(['👍', 2, [users.comment.id, users.edit.id]]);
    c = await putComment(as.comment, cr.id, comment.id, { removedReactions: ['👍', '🎉'] });
    expect(summary(c)).toEqual([['👍', 1, [users.edit.id]]]);
    c = await putComment(as.comment, cr.id, comment.id, { removedReactions: ['👍'] });
    expect(summary(c)).toEqual([['👍', 1, [users.edit.id]]]);
    expect(summary(await getComment(as.read, cr.id, comment.id))).toEqual([['👍', 1, [users.edit.id]]]);
    expect(c.editedAt).toBeUndefined();
    const refused = await as.read.put(commentPath(spaceId, cr.id, comment.id), { addedReactions: ['👍'] });
    expect(refused.status).toBe(403);
    assertErrorBody(403, refused.body);
  });

  it('resolves a comment and reopens it', async () => {
    const cr = await changeRequest();
    const comment = await postComment(as.admin, spaceId, cr.id);
    const openComments = async () => expectStatus('get change request', await as.read.get(crPath(spaceId, cr.id)), 200).body.comments;
    expect(await openComments()).toBe(1);
    const resolved = await putComment(as.comment, cr.id, comment.id, { resolved: true });
    expect(resolved).toMatchObject({ status: 'resolved', resolvedBy: { id: users.comment.id }, resolvedAt: expect.any(String) });
    expect(await openComments()).toBe(0);
    const again = await putComment(as.edit, cr.id, comment.id, { resolved: true });
    expect({ at: again.resolvedAt, by: again.resolvedBy.id }).toEqual({ at: resolved.resolvedAt, by: users.comment.id });
    expect((await as.read.put(commentPath(spaceId, cr.id, comment.id), { resolved: false })).status).toBe(403);
    const reopened = await putComment(as.admin, cr.id, comment.id, { resolved: false });
    expect(reopened.status).toBe('open');
    expect(reopened).not.toHaveProperty('resolvedAt');
    expect(reopened).not.toHaveProperty('resolvedBy');
    expect(await openComments()).toBe(1);
    expect(reopened.editedAt).toBeUndefined();
  });

  it('lets only its author change a body; its author or a space admin delete it, with its replies', async () => {
    const cr = await changeRequest();
    const mine = await postComment(as.comment, spaceId, cr.id, { body: { markdown: 'Draft.' } });
    const refused = await as.edit.put(commentPath(spaceId, cr.id, mine.id), { body: { markdown: 'Hijacked.' } });
    expect(refused.status).toBe(403);
    assertErrorBody(403, refused.body);
    const edited = await putComment(as.comment, cr.id, mine.id, { body: { markdown: 'Final.' } });
    expect(edited.editedAt).toEqual(expect.any(String));
    expect((await getComment(as.read, cr.id, mine.id, '?format=markdown')).body.markdown.trim()).toBe('Final.');

    const reply = await postReply(as.edit, spaceId, cr.id, mine.id);
    expect((await as.edit.delete(commentPath(spaceId, cr.id, mine.id))).status).toBe(403);
    expect((await as.read.delete(commentPath(spaceId, cr.id, mine.id))).status).toBe(403);
    official(await as.admin.delete(commentPath(spaceId, cr.id, mine.id)), 'delete', SPEC.comment, 205);
    official(await as.admin.delete(commentPath(spaceId, cr.id, mine.id)), 'delete', SPEC.comment, 204);
    official(await as.comment.delete(commentPath(spaceId, cr.id, mine.id)), 'delete', SPEC.comment, 204);
    for (const path of [commentPath(spaceId, cr.id, mine.id), repliesPath(spaceId, cr.id, mine.id), replyPath(spaceId, cr.id, mine.id, reply.id)]) {
      const gone = await as.read.get(path);
      expect([path, gone.status]).toEqual([path, 404]);
      assertErrorBody(404, gone.body);
    }
    expect((await as.comment.put(commentPath(spaceId, cr.id, mine.id), { resolved: true })).status).toBe(404);
    expect((await as.comment.post(repliesPath(spaceId, cr.id, mine.id), { body: {} })).status).toBe(404);
    expect((await list(cr.id)).count).toBe(0);

    const own = await postComment(as.comment, spaceId, cr.id);
    official(await as.comment.delete(commentPath(spaceId, cr.id, own.id)), 'delete', SPEC.comment, 205);
  });

  it('takes comments on a merged change request', async () => {
    const cr = await changeRequest(['Merged page']);
    const merged = expectStatus('merge', await as.admin.post(`${crPath(spaceId, cr.id)}/merge`), 200).body;
    expect(merged.result).toBe('merge');
    const comment = await postComment(as.comment, spaceId, cr.id, { body: { markdown: 'After the fact.' }, page: cr.pages[0] });
    expect(comment.target.page).toMatchObject({ id: cr.pages[0], outdated: false });
    await postReply(as.edit, spaceId, cr.id, comment.id);
    expect((await putComment(as.review, cr.id, comment.id, { resolved: true, addedReactions: ['✅'] })).status).toBe('resolved');
  });

  it('answers 404 for a comment of another change request and for what does not exist', async () => {
    const [one, two] = [await changeRequest(), await changeRequest()];
    const comment = await postComment(as.comment, spaceId, one.id);
    const other = await postComment(as.comment, spaceId, one.id);
    const reply = await postReply(as.comment, spaceId, one.id, comment.id);
    const calls: Array<[string, Promise<{ status: number; body: unknown }>]> = [
      ['GET via another change request', as.admin.get(commentPath(spaceId, two.id, comment.id))],
      ['PUT via another change request', as.admin.put(commentPath(spaceId, two.id, comment.id), { resolved: true })],
      ['DELETE via another change request', as.admin.delete(commentPath(spaceId, two.id, comment.id))],
      ['GET replies via another change request', as.admin.get(repliesPath(spaceId, two.id, comment.id))],
      ['POST reply via another change request', as.admin.post(repliesPath(spaceId, two.id, comment.id), { body: {} })],
      ['GET reply via another change request', as.admin.get(replyPath(spaceId, two.id, comment.id, reply.id))],
      ['GET reply via another comment', as.admin.get(replyPath(spaceId, one.id, other.id, reply.id))],
      ['PUT reply via another comment', as.admin.put(replyPath(spaceId, one.id, other.id, reply.id), { addedReactions: ['👍'] })],
      ['DELETE reply via another comment', as.admin.delete(replyPath(spaceId, one.id, other.id, reply.id))],
      ['GET unknown comment', as.admin.get(commentPath(spaceId, one.id, unknownId()))],
      ['DELETE unknown comment', as.admin.delete(commentPath(spaceId, one.id, unknownId()))],
      ['GET unknown reply', as.admin.get(replyPath(spaceId, one.id, comment.id, unknownId()))],
      ['DELETE unknown reply', as.admin.delete(replyPath(spaceId, one.id, comment.id, unknownId()))],
      ['GET comments of an unknown change request', as.admin.get(commentsPath(spaceId, unknownId()))],
      ['POST comment in an unknown change request', as.admin.post(commentsPath(spaceId, 999999), { body: {} })],
      ['GET comments in an unknown space', as.admin.get(commentsPath(unknownId(), one.id))],
    ];
    const answers = await Promise.all(calls.map(async ([name, res]) => [name, (await res).status, (await res).body] as const));
    for (const [, status, body] of answers) if (status === 404) assertErrorBody(404, body);
    expect(answers.map(([name, status]) => [name, status])).toEqual(calls.map(([name]) => [name, 404]));
    // nothing changed
    expect((await getComment(as.read, one.id, comment.id)).status).toBe('open');
    expect((await getComment(as.read, one.id, comment.id)).replies).toBe(1);
  });

  it('refuses bad input with 400 and the error body', async () => {
    const cr = await changeRequest();
    const comment = await postComment(as.comment, spaceId, cr.id);
    const reply = await postReply(as.comment, spaceId, cr.id, comment.id);
    const c = as.comment;
    const listPath = commentsPath(spaceId, cr.id);
    const one = commentPath(spaceId, cr.id, comment.id);
    const replies = repliesPath(spaceId, cr.id, comment.id);
    const oneReply = replyPath(spaceId, cr.id, comment.id, reply.id);
    const calls: Array<[string, () => Promise<{ status: number; body: unknown }>]> = [
      ['POST without a body', () => c.post(listPath)],
      ['POST without body.body', () => c.post(listPath, { page: 'x' })],
      ['POST with a numeric markdown', () => c.post(listPath, { body: { markdown: 12 } })],
      ['POST with markdown and more', () => c.post(listPath, { body: { markdown: 'x', extra: true } })],
      ['POST with markdown too long', () => c.post(listPath, { body: { markdown: 'x'.repeat(65537) } })],
      ['POST with a document that is not one', () => c.post(listPath, { body: { document: { object: 'block', data: {}, nodes: [] } } })],
      ['POST with an unknown field', () => c.post(listPath, { body: {}, tableCell: { record: 'r', definition: 'd' } })],
      ['POST with a node too long', () => c.post(listPath, { body: {}, node: 'n'.repeat(129) })],
      ['POST with an empty node', () => c.post(listPath, { body: {}, node: '' })],
      ['POST with a page the head lacks', () => c.post(listPath, { body: {}, page: unknownId() })],
      ['POST with format html', () => c.post(`${listPath}?format=html`, { body: {} })],
      ['POST malformed JSON', () => c.post(listPath, '{"body":')],
      ['GET list with order sideways', () => c.get(`${listPath}?order=sideways`)],
      ['GET list with status closed', () => c.get(`${listPath}?status=closed`)],
      ['GET list with format html', () => c.get(`${listPath}?format=html`)],
      ['GET list with limit 1001', () => c.get(`${listPath}?limit=1001`)],
      ['GET list with a page that is no cursor', () => c.get(`${listPath}?page=garbage`)],
      ['GET list with an unknown parameter', () => c.get(`${listPath}?sort=new`)],
      ['GET comment with format html', () => c.get(`${one}?format=html`)],
      ['PUT with resolved "yes"', () => c.put(one, { resolved: 'yes' })],
      ['PUT with an unknown field', () => c.put(one, { status: 'resolved' })],
      ['PUT with 21 reactions', () => c.put(one, { addedReactions: Array.from({ length: 21 }, (_, i) => `e${i}`) })],
      ['PUT with a reaction with a space', () => c.put(one, { addedReactions: ['thumbs up'] })],
      ['PUT with a reaction that is not text', () => c.put(one, { removedReactions: [1] })],
      ['PUT with a body that is not one', () => c.put(one, { body: { text: 'x' } })],
      ['GET replies with limit -1', () => c.get(`${replies}?limit=-1`)],
      ['POST reply without body', () => c.post(replies, {})],
      ['POST reply with an unknown field', () => c.post(replies, { body: {}, page: 'x' })],
      ['PUT reply with resolved', () => c.put(oneReply, { resolved: true })],
      ['PUT reply with a body that is not one', () => c.put(oneReply, { body: { markdown: ['x'] } })],
    ];
    const mismatches: string[] = [];
    for (const [name, call] of calls) {
      const res = await call();
      if (res.status !== 400) mismatches.push(`${name}: ${res.status} ${JSON.stringify(res.body)}`);
      else assertErrorBody(400, res.body);
    }
    expect(mismatches).toEqual([]);
    // nothing was written
    const after = await getComment(as.read, cr.id, comment.id);
    expect({ reactions: after.reactions, status: after.status, editedAt: after.editedAt, replies: after.replies }).toEqual({
      reactions: [],
      status: 'open',
      editedAt: undefined,
      replies: 1,
    });
    expect((await list(cr.id)).count).toBe(1);
  });

  it('publishes comment and reply events with the changes', async () => {
    const cr = await changeRequest();
    const comment = await postComment(as.comment, spaceId, cr.id);
    await putComment(as.comment, cr.id, comment.id, { resolved: true });
    const reply = await postReply(as.edit, spaceId, cr.id, comment.id);
    official(await as.edit.put(replyPath(spaceId, cr.id, comment.id, reply.id), { body: { markdown: 'Edited.' } }), 'put', SPEC.reply);
    official(await as.edit.delete(replyPath(spaceId, cr.id, comment.id, reply.id)), 'delete', SPEC.reply, 205);
    official(await as.comment.delete(commentPath(spaceId, cr.id, comment.id)), 'delete', SPEC.comment, 205);
    const mine = (e: { data: unknown }) => (e.data as Json).commentId === comment.id;
    const events = await readEvents(sut.env.KAFKA_BROKERS.split(','), `${sut.env.KAFKA_NAMESPACE}bindery.change-requests.v1`, (evs) => evs.filter(mine).length >= 6);
    const summary = events.filter(mine).map((e) => [e.type, (e.data as Json).replyId ?? null, (e.data as Json).actor, (e.data as Json).changeRequestId, e.subject]);
    expect(summary.sort()).toEqual(
      [
        ['change_requests.comment.created', null, users.comment.id, cr.id, spaceId],
        ['change_requests.comment.updated', null, users.comment.id, cr.id, spaceId],
        ['change_requests.comment.deleted', null, users.comment.id, cr.id, spaceId],
        ['change_requests.reply.created', reply.id, users.edit.id, cr.id, spaceId],
        ['change_requests.reply.updated', reply.id, users.edit.id, cr.id, spaceId],
        ['change_requests.reply.deleted', reply.id, users.edit.id, cr.id, spaceId],
      ].sort(),
    );
  });
});
