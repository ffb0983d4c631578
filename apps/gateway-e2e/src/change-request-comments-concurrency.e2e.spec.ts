import { startSystem, SystemUnderTest } from '@bindery/shared/testing';
import { commentPath, Json, official, openChangeRequest, postComment, replyPath, repliesPath, SPEC } from './change-request-comment-fixtures';
import { createSpace } from './content-fixtures';
import { organizationWithEveryRole, RoleName, TestUser } from './fixtures';
import { Client, http, walk } from './http-client';

// Two change-requests replicas (each behind its own gateway) on one database: each replica queues the
// writes of one comment, so only the transactions keep the counts true across replicas.
describe('change request comments written through two replicas at once', () => {
  let sut: SystemUnderTest;
  let users: Record<RoleName, TestUser>;
  let one: Record<RoleName, Client>;
  let two: Record<RoleName, Client>;
  let spaceId: string;
  let crId: string;

  // Longer than the tier: starts its own system with a second change-requests replica.
  beforeAll(async () => {
    sut = await startSystem({}, { services: ['identity', 'content', 'change-requests'] });
    const second = await sut.addReplica('change-requests');
    const org = await organizationWithEveryRole(sut);
    users = org.members;
    const clients = (baseUrl: string) => Object.fromEntries(Object.entries(users).map(([role, u]) => [role, http(baseUrl, u.token)])) as Record<RoleName, Client>;
    one = clients(sut.baseUrl);
    two = clients(second);
    spaceId = (await createSpace(one.admin, org.orgId, { title: 'Busy' })).id;
    crId = (await openChangeRequest(one.admin, spaceId)).id;
  }, 180_000);

  afterAll(() => sut?.stop());

  const counted = async (commentId: string) => {
    const c = official(await one.read.get(commentPath(spaceId, crId, commentId)), 'get', SPEC.comment);
    const all = await walk<Json>(one.read, repliesPath(spaceId, crId, commentId), 1000);
    const actual: Record<string, number> = {};
    for (const r of all) actual[r.postedBy.id] = (actual[r.postedBy.id] ?? 0) + 1;
    const byUser = Object.fromEntries(c.repliers.map((r: Json) => [r.user.id, r.count]));
    return { replies: c.replies as number, listed: all.length, unique: new Set(all.map((r) => r.id)).size, byUser, actual };
  };

  it('counts 10 and 20 concurrent replies exactly, then 5 deletions racing 5 new replies', async () => {
    const writers = [one.comment, two.edit, one.admin, two.comment, one.edit, two.admin];
    const reply = (commentId: string, i: number, text: string) => writers[i % 6].post(repliesPath(spaceId, crId, commentId), { body: { markdown: text } });
    // writers[i % 6] is the comment, edit or admin member as i % 3 is 0, 1 or 2
    const authors = [users.comment.id, users.edit.id, users.admin.id];
    const expected = (n: number) => {
      const out: Record<string, number> = {};
      for (let i = 0; i < n; i++) out[authors[i % 3]] = (out[authors[i % 3]] ?? 0) + 1;
      return out;
    };
    for (const n of [10, 20]) {
      const comment = await postComment(one.admin, spaceId, crId);
      const first = await Promise.all(Array.from({ length: n }, (_, i) => reply(comment.id, i, `Reply ${i}`)));
      expect(first.map((r) => r.status)).toEqual(Array(n).fill(200));
      for (const r of first) official(r, 'post', SPEC.replies);
      let c = await counted(comment.id);
      expect([n, c]).toEqual([n, { replies: n, listed: n, unique: n, byUser: expected(n), actual: expected(n) }]);

      const doomed = first.slice(0, 5).map((r) => r.body.id as string);
      const raced = await Promise.all([
        ...doomed.map((id, i) => (i % 2 ? one : two).admin.delete(replyPath(spaceId, crId, comment.id, id))),
        ...Array.from({ length: 5 }, (_, i) => reply(comment.id, i + 1, `Late ${i}`)),
      ]);
      expect(raced.map((r) => r.status)).toEqual([...Array(5).fill(205), ...Array(5).fill(200)]);
      c = await counted(comment.id);
      expect([n, { replies: c.replies, listed: c.listed, unique: c.unique, byUser: c.byUser }]).toEqual([n, { replies: n, listed: n, unique: n, byUser: c.actual }]);
    }
  });

  it('keeps every reaction of 5 members adding 4 emoji each, all at once', async () => {
    const comment = await postComment(one.admin, spaceId, crId);
    const commenters = ['admin', 'create', 'review', 'edit', 'comment'] as const;
    const emoji = ['👍', '🎉', '👀', '🚀'];
    const answers = await Promise.all(
      commenters.flatMap((who, i) => emoji.map((e, j) => ((i + j) % 2 ? one : two)[who].put(commentPath(spaceId, crId, comment.id), { addedReactions: [e] }))),
    );
    expect(answers.map((r) => r.status)).toEqual(Array(20).fill(200));
    const c = official(await one.read.get(commentPath(spaceId, crId, comment.id)), 'get', SPEC.comment);
    const summary = Object.fromEntries(c.reactions.map((r: Json) => [r.emoji, [r.count, r.users.map((u: Json) => u.user.id).sort()]]));
    const everyone = commenters.map((who) => users[who].id).sort();
    expect(summary).toEqual(Object.fromEntries(emoji.map((e) => [e, [5, everyone]])));
  });
});
