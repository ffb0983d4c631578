import { sharedSystem, SystemUnderTest } from '@bindery/shared/testing';
import { commentPath, commentsPath, official, openChangeRequest, postComment, postReply, replyPath, repliesPath, SPEC } from './change-request-comment-fixtures';
import { createSpace, unknownId } from './content-fixtures';
import { organizationWithEveryRole } from './fixtures';
import { Caller, CALLERS, callerClients, Client, matrixMismatches, MatrixRow } from './matrix';

// The callers of matrix.ts: one member per organization role on a space whose default level is
// `inherit` (each member's role is their organization role there), a guest (no role, no grant: the
// space is invisible), another organization's admin, a token never issued, and none.
type Commenter = 'admin' | 'create' | 'review' | 'edit' | 'comment';
const COMMENTERS: Commenter[] = ['admin', 'create', 'review', 'edit', 'comment'];
const isCommenter = (who: Caller): who is Commenter => (COMMENTERS as Caller[]).includes(who);

interface Ctx {
  spaceId: string;
  crId: string;
  clients: Record<Caller, Client>;
  /** a comment by the `comment` member and a reply to it by the same member */
  theirs: { comment: string; reply: string };
  /** the answers that differ from the same call about a space id that names nothing */
  shapes: string[];
}

interface Row {
  name: string;
  method: 'get' | 'post' | 'put' | 'delete';
  /** the official path, to validate a success against */
  spec: string;
  /** the path for this caller, in a space (whose id may name nothing); may first make what it needs */
  path(x: Ctx, who: Caller): Promise<(spaceId: string) => string>;
  body?: unknown;
  /** expected status per caller, in the order of CALLERS */
  expect: number[];
}

/** A comment by `author` (the `comment` member unless given), and a reply to it by the same author. */
async function fresh(x: Ctx, author: Commenter = 'comment') {
  const client = x.clients[author];
  const comment = await postComment(client, x.spaceId, x.crId);
  const reply = await postReply(client, x.spaceId, x.crId, comment.id);
  return { comment: comment.id as string, reply: reply.id as string };
}
/** A fresh comment of the caller's own when they can comment, else one of the `comment` member. */
const own = (x: Ctx, who: Caller) => fresh(x, isCommenter(who) ? who : 'comment');
/** A fresh comment of the `comment` member, whoever calls. */
const another = (x: Ctx) => fresh(x);

const theirs = (x: Ctx) => x.theirs;

// Reading: read and up (the guest and the stranger do not see the space: 404). Commenting, replying,
// reacting, resolving: comment and up; a reader who sees the space is forbidden. Bodies: their
// authors only. Deleting: the author, or a space admin.
//                                                      admin create review edit comment read guest stranger bad none
const READ = [200, 200, 200, 200, 200, 200, 404, 404, 401, 401];
const COMMENT = [200, 200, 200, 200, 200, 403, 404, 404, 401, 401];
const AUTHOR_ONLY = [403, 403, 403, 403, 200, 403, 404, 404, 401, 401];
const DELETE_THEIRS = [205, 403, 403, 403, 205, 403, 404, 404, 401, 401];
const DELETE_OWN = [205, 205, 205, 205, 205, 403, 404, 404, 401, 401];
const DELETE_AGAIN = [204, 403, 403, 403, 204, 403, 404, 404, 401, 401];

function rows(): Row[] {
  const c = (id: (x: Ctx) => { comment: string }) => async (x: Ctx) => (s: string) => commentPath(s, x.crId, id(x).comment);
  const r = (id: (x: Ctx) => { comment: string; reply: string }) => async (x: Ctx) => (s: string) => replyPath(s, x.crId, id(x).comment, id(x).reply);
  const rs = (id: (x: Ctx) => { comment: string }) => async (x: Ctx) => (s: string) => repliesPath(s, x.crId, id(x).comment);
  const ofFresh =
    (make: (x: Ctx, who: Caller) => Promise<{ comment: string; reply: string }>, path: (s: string, x: Ctx, ids: { comment: string; reply: string }) => string) =>
    async (x: Ctx, who: Caller) => {
      const ids = await make(x, who);
      return (s: string) => path(s, x, ids);
    };
  /** the comment (or reply) deleted already by its author */
  const deleted = (what: 'comment' | 'reply') =>
    ofFresh(
      async (x) => {
        const ids = await fresh(x);
        const path = what === 'comment' ? commentPath(x.spaceId, x.crId, ids.comment) : replyPath(x.spaceId, x.crId, ids.comment, ids.reply);
        official(await x.clients.comment.delete(path), 'delete', what === 'comment' ? SPEC.comment : SPEC.reply, 205);
        return ids;
      },
      (s, x, ids) => (what === 'comment' ? commentPath(s, x.crId, ids.comment) : replyPath(s, x.crId, ids.comment, ids.reply)),
    );
  return [
    { name: 'GET comments (listCommentsInChangeRequest)', method: 'get', spec: SPEC.comments, path: async (x) => (s) => commentsPath(s, x.crId), expect: READ },
    {
      name: 'GET comments?status=open&format=markdown&order=asc',
      method: 'get',
      spec: SPEC.comments,
      path: async (x) => (s) => `${commentsPath(s, x.crId)}?status=open&format=markdown&order=asc`,
      expect: READ,
    },
    {
      name: 'POST comment (postCommentInChangeRequest)',
      method: 'post',
      spec: SPEC.comments,
      path: async (x) => (s) => commentsPath(s, x.crId),
      body: { body: { markdown: 'Hi.' } },
      expect: COMMENT,
    },
    { name: 'GET comment (getCommentInChangeRequest)', method: 'get', spec: SPEC.comment, path: c(theirs), expect: READ },
    { name: 'PUT comment: react', method: 'put', spec: SPEC.comment, path: c(theirs), body: { addedReactions: ['👍'] }, expect: COMMENT },
    { name: 'PUT comment: resolve', method: 'put', spec: SPEC.comment, path: c(theirs), body: { resolved: true }, expect: COMMENT },
    { name: 'PUT comment: reopen', method: 'put', spec: SPEC.comment, path: c(theirs), body: { resolved: false }, expect: COMMENT },
    { name: "PUT comment: another's body", method: 'put', spec: SPEC.comment, path: c(theirs), body: { body: { markdown: 'Rewritten.' } }, expect: AUTHOR_ONLY },
    {
      name: 'PUT comment: own body',
      method: 'put',
      spec: SPEC.comment,
      path: ofFresh(own, (s, x, ids) => commentPath(s, x.crId, ids.comment)),
      body: { body: { markdown: 'Rewritten.' } },
      expect: COMMENT,
    },
    { name: "DELETE comment: another's", method: 'delete', spec: SPEC.comment, path: ofFresh(another, (s, x, ids) => commentPath(s, x.crId, ids.comment)), expect: DELETE_THEIRS },
    { name: 'DELETE comment: own', method: 'delete', spec: SPEC.comment, path: ofFresh(own, (s, x, ids) => commentPath(s, x.crId, ids.comment)), expect: DELETE_OWN },
    { name: 'DELETE comment: deleted already', method: 'delete', spec: SPEC.comment, path: deleted('comment'), expect: DELETE_AGAIN },
    { name: 'GET replies (listCommentRepliesInChangeRequest)', method: 'get', spec: SPEC.replies, path: rs(theirs), expect: READ },
    { name: 'POST reply (postCommentReplyInChangeRequest)', method: 'post', spec: SPEC.replies, path: rs(theirs), body: { body: { markdown: 'Agreed.' } }, expect: COMMENT },
    { name: 'GET reply (getCommentReplyInChangeRequest)', method: 'get', spec: SPEC.reply, path: r(theirs), expect: READ },
    { name: 'PUT reply: react', method: 'put', spec: SPEC.reply, path: r(theirs), body: { addedReactions: ['🎉'], removedReactions: ['👀'] }, expect: COMMENT },
    { name: "PUT reply: another's body", method: 'put', spec: SPEC.reply, path: r(theirs), body: { body: { markdown: 'Rewritten.' } }, expect: AUTHOR_ONLY },
    {
      name: 'PUT reply: own body',
      method: 'put',
      spec: SPEC.reply,
      path: ofFresh(own, (s, x, ids) => replyPath(s, x.crId, ids.comment, ids.reply)),
      body: { body: { markdown: 'Rewritten.' } },
      expect: COMMENT,
    },
    {
      name: "DELETE reply: another's",
      method: 'delete',
      spec: SPEC.reply,
      path: ofFresh(another, (s, x, ids) => replyPath(s, x.crId, ids.comment, ids.reply)),
      expect: DELETE_THEIRS,
    },
    { name: 'DELETE reply: own', method: 'delete', spec: SPEC.reply, path: ofFresh(own, (s, x, ids) => replyPath(s, x.crId, ids.comment, ids.reply)), expect: DELETE_OWN },
    { name: 'DELETE reply: deleted already', method: 'delete', spec: SPEC.reply, path: deleted('reply'), expect: DELETE_AGAIN },
  ];
}

/**
 * The rows as matrix rows: every success validates against the official response, and whenever a
 * caller gets a 404, the same call about a space id that names nothing answers the same status and
 * body (a hidden space is a nonexistent one).
 */
function matrixRows(list: Row[]): Array<MatrixRow<Ctx, Caller>> {
  return list.map((row) => ({
    name: row.name,
    expect: row.expect,
    async call(client, x, who) {
      const path = await row.path(x, who);
      const send = (spaceId: string) => client.send(row.method.toUpperCase(), path(spaceId), row.body);
      const res = await send(x.spaceId);
      if (res.status < 300) official(res, row.method, row.spec, res.status);
      if (res.status === 404) {
        const ghostId = unknownId();
        const ghost = await send(ghostId);
        const seen = JSON.stringify(res.body).split(x.spaceId).join('<id>');
        const unknown = JSON.stringify(ghost.body).split(ghostId).join('<id>');
        if (ghost.status !== res.status || seen !== unknown) x.shapes.push(`${row.name} as ${who}: ${res.status} ${seen}, for an unknown space ${ghost.status} ${unknown}`);
      }
      return res;
    },
  }));
}

describe('authorization matrix: change request comments and replies', () => {
  let sut: SystemUnderTest;
  let ctx: Ctx;

  beforeAll(async () => {
    sut = await sharedSystem();
    const org = await organizationWithEveryRole(sut);
    const clients = callerClients(sut, org);
    const spaceId = (await createSpace(clients.admin, org.orgId, { title: 'Discussed' })).id;
    const cr = await openChangeRequest(clients.admin, spaceId);
    ctx = { spaceId, crId: cr.id, clients, theirs: { comment: '', reply: '' }, shapes: [] };
    ctx.theirs = await fresh(ctx);
  });

  beforeEach(() => {
    ctx.shapes = [];
  });

  const check = async (names: RegExp) => {
    const selected = rows().filter((r) => names.test(r.name));
    expect(selected.length).toBeGreaterThan(0);
    expect(await matrixMismatches(matrixRows(selected), CALLERS, ctx.clients, ctx)).toEqual([]);
    expect(ctx.shapes).toEqual([]);
  };

  // Longer than the tier: one request per cell of the authorization matrix.
  it('answers every comment call as written', () => check(/^(GET|POST|PUT|DELETE) comment/), 300_000);
  it('answers every reply call as written', () => check(/^(GET|POST|PUT|DELETE) repl/), 300_000);

  it('has a row for every endpoint, each with a status per caller', () => {
    const all = rows();
    expect(all.every((r) => r.expect.length === CALLERS.length)).toBe(true);
    const endpoints = new Set(all.map((r) => `${r.method.toUpperCase()} ${r.spec}`));
    expect([...endpoints].sort()).toEqual(
      [
        `GET ${SPEC.comments}`,
        `POST ${SPEC.comments}`,
        `GET ${SPEC.comment}`,
        `PUT ${SPEC.comment}`,
        `DELETE ${SPEC.comment}`,
        `GET ${SPEC.replies}`,
        `POST ${SPEC.replies}`,
        `GET ${SPEC.reply}`,
        `PUT ${SPEC.reply}`,
        `DELETE ${SPEC.reply}`,
      ].sort(),
    );
  });
});
