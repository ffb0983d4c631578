import { sharedSystem, SystemUnderTest } from '@bindery/shared/testing';
import { contentItem, ContentKind, contentPath, deleteContent, ItemOptions, unknownId } from './content-fixtures';
import { createOrganization, createUser, organizationWithEveryRole, TestUser } from './fixtures';
import { http } from './http-client';
import { Client, matrixMismatches, MatrixRow } from './matrix';
import { createTeam } from './team-fixtures';
import { Access, COLLECTION_ROWS, Ctx, Row, S, SPACE_ROWS, Who, WHO } from './content-authorization-rows';
import { MEMBER_SPACE_ROWS, permissionRows } from './content-permission-rows';

/**
 * Each row as a matrix row. Whenever a caller is refused with a 404 (a 400 for parents), the same
 * call about an id that names nothing must answer the same status and the same body: an invisible
 * space or collection is indistinguishable from a nonexistent one. A target made for the call (a
 * fresh or deleted item) serves the next callers of the row until a call succeeds: a refused call
 * leaves it as it was made, so each caller still meets it untouched.
 */
function matrixRows(rows: Row[]): Array<MatrixRow<Ctx, Who>> {
  return rows.map((row) => {
    let untouched: string | undefined;
    return {
      name: row.name,
      expect: row.expect,
      async call(c, x, who) {
        const id = untouched ?? (await row.target(x));
        const res = await row.call(c, id, x, who);
        untouched = res.status >= 300 ? id : undefined;
        if ((row.ghost ?? [404]).includes(res.status) && !row.noGhost?.includes(who)) {
          const ghostId = unknownId();
          const ghost = await row.call(c, ghostId, x, who);
          const seen = JSON.stringify(res.body).split(id).join('<id>');
          const unknown = JSON.stringify(ghost.body).split(ghostId).join('<id>');
          if (ghost.status !== res.status || seen !== unknown) x.shapes.push(`${row.name} as ${who}: ${res.status} ${seen}, for an unknown id ${ghost.status} ${unknown}`);
        }
        return res;
      },
    };
  });
}

describe('authorization matrix: content endpoints', () => {
  let sut: SystemUnderTest;
  let clients: Record<Who, Client>;
  let ctx: Ctx;

  beforeAll(async () => {
    sut = await sharedSystem();
    const { orgId, members, stranger } = await organizationWithEveryRole(sut);
    const admin = http(sut.baseUrl, members.admin.token);
    const join = async (name: string, role: string | null): Promise<TestUser> => {
      const user = await createUser(sut, name);
      const res = await admin.post(`/v1/orgs/${orgId}/invites`, { emails: [{ email: user.email, role }] });
      if (res.status !== 200 || res.body.users[0] !== user.id) throw new Error(`invite ${name}: ${res.status} ${JSON.stringify(res.body)}`);
      return user;
    };
    const guest = members.guest;
    const teamMember = await join('team-guest', null);
    const restricted = await join('restricted', 'read');
    const team = await createTeam(admin, orgId, 'Commenters', [teamMember.id]);
    const users: Record<Exclude<Who, 'stranger' | 'badToken' | 'noToken'>, TestUser> = {
      admin: members.admin,
      create: members.create,
      review: members.review,
      edit: members.edit,
      comment: members.comment,
      read: members.read,
      guestWithGrant: guest,
      teamMember,
      restrictedMember: restricted,
    };
    clients = {
      ...(Object.fromEntries(Object.entries(users).map(([who, u]) => [who, http(sut.baseUrl, u.token)])) as Record<keyof typeof users, Client>),
      stranger: http(sut.baseUrl, stranger.token),
      badToken: http(sut.baseUrl, 'gb_api_this-token-was-never-issued'),
      noToken: http(sut.baseUrl),
    };
    const self = {
      ...Object.fromEntries(Object.entries(users).map(([who, u]) => [who, u.id])),
      stranger: stranger.id,
      badToken: 'x',
      noToken: 'x',
    } as Record<Who, string>;
    const strangerOrgId = (await clients.stranger.get('/v1/orgs')).body.items[0].id as string;
    const secondOrgId = await createOrganization(sut, members.admin, 'Second');

    const grants = [
      { role: 'read' as const, users: [guest.id] },
      { role: 'comment' as const, teams: [team] },
    ];
    const options = (access: Access): ItemOptions => (access === 'open' ? { grants } : { defaultLevel: null, grants });
    // The guest invited and the team created a moment ago are given their roles at once.
    const item = {
      space: {
        open: await contentItem(admin, orgId, 'space', { title: 'Open space', ...options('open') }),
        restricted: await contentItem(admin, orgId, 'space', { title: 'Restricted space', ...options('restricted') }),
      },
      collection: {
        open: await contentItem(admin, orgId, 'collection', { title: 'Open collection', ...options('open') }),
        restricted: await contentItem(admin, orgId, 'collection', { title: 'Restricted collection', ...options('restricted') }),
      },
    };
    // Something to list in each collection.
    await contentItem(admin, orgId, 'space', { title: 'In the open collection', parent: item.collection.open });
    await contentItem(admin, orgId, 'space', { title: 'In the restricted collection', parent: item.collection.restricted });

    const fresh = (kind: ContentKind, access: Access) => contentItem(admin, orgId, kind, { title: `Fresh ${access} ${kind}`, ...options(access) });
    ctx = {
      orgId,
      strangerOrgId,
      secondOrgId,
      team,
      self,
      item,
      fresh,
      async deleted(kind, access) {
        const id = await fresh(kind, access);
        await deleteContent(admin, kind, id);
        return id;
      },
      shapes: [],
    };
  });

  beforeEach(() => {
    ctx.shapes = [];
  });

  const check = async (rows: Row[]) => {
    expect(await matrixMismatches(matrixRows(rows), WHO, clients, ctx)).toEqual([]);
    expect(ctx.shapes).toEqual([]);
  };

  // Longer than the tier: one request per cell of the authorization matrix.
  it('answers every space call as written, a hidden space like a nonexistent one', () => check(SPACE_ROWS), 300_000);
  it('answers every collection call as written, a hidden collection like a nonexistent one', () => check(COLLECTION_ROWS), 300_000);
  it('answers every space permission call as written', () => check(permissionRows('space')), 300_000);
  it('answers every collection permission call as written', () => check(permissionRows('collection')), 300_000);
  it("answers every member's spaces call as written", () => check(MEMBER_SPACE_ROWS), 300_000);

  it('gives the restricted content to the admin and the two grantees only, each with the role of their source', async () => {
    for (const kind of ['space', 'collection'] as const) {
      const res = await clients.admin.get(`${contentPath(kind, ctx.item[kind].restricted)}/permissions/aggregate`);
      expect(res.status).toBe(200);
      const roles = Object.fromEntries((res.body.items as Array<{ permission: string; user: { id: string } }>).map((i) => [i.user.id, i.permission]));
      expect({ kind, roles }).toEqual({ kind, roles: { [ctx.self.admin]: 'admin', [ctx.self.guestWithGrant]: 'read', [ctx.self.teamMember]: 'comment' } });
    }
    // The permissions object says the same: the team's comment grant lets its member comment, not the guest's read grant.
    const space = async (who: Who) => (await clients[who].get(S(ctx.item.space.restricted))).body.permissions;
    expect(await space('teamMember')).toMatchObject({ view: true, comment: true, edit: false, admin: false });
    expect(await space('guestWithGrant')).toMatchObject({ view: true, comment: false, edit: false, admin: false });
  });
});
