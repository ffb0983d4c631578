import { sharedSystem, SystemUnderTest } from '@bindery/shared/testing';
import { contentItem, ContentKind, contentPath, deleteContent, ItemOptions, unknownId } from './content-fixtures';
import { createOrganization, createUser, organizationWithEveryRole, TestUser } from './fixtures';
import { http } from './http-client';
import { Client, matrixMismatches, MatrixRow } from './matrix';
import { createTeam } from './team-fixtures';

// The callers, besides one member per organization role (admin … read):
// - guestWithGrant: a guest (member without a role) with a direct `read` grant on every space and
//   collection under test;
// - teamMember: another guest, in a team that has a `comment` grant on every space and collection
//   under test: the team grant is their only access;
// - restrictedMember: a `read` member with no grant anywhere (404 on restricted content);
// - stranger: the admin of another organization; then a token that was never issued, and none.
type Who = 'admin' | 'create' | 'review' | 'edit' | 'comment' | 'read' | 'guestWithGrant' | 'teamMember' | 'restrictedMember' | 'stranger' | 'badToken' | 'noToken';
const WHO: Who[] = ['admin', 'create', 'review', 'edit', 'comment', 'read', 'guestWithGrant', 'teamMember', 'restrictedMember', 'stranger', 'badToken', 'noToken'];
type Result = { status: number; body: unknown };

/**
 * Two of each kind of content, made by the organization admin, each with the guest's read grant and
 * the team's comment grant:
 * - open: the default level `inherit` (at the top level: the member's organization role);
 * - restricted: the default level null, so members see it only through a grant (the admin: always).
 */
type Access = 'open' | 'restricted';

interface Ctx {
  orgId: string;
  /** the stranger's organization: no caller of the matrix but the stranger is a member there */
  strangerOrgId: string;
  /** a second organization of the admin (admin there too) */
  secondOrgId: string;
  /** the team of teamMember */
  team: string;
  self: Record<Who, string>;
  item: Record<ContentKind, Record<Access, string>>;
  /** a new space or collection like the shared one (same default level and grants), for a call that changes it */
  fresh(kind: ContentKind, access: Access): Promise<string>;
  /** a fresh one, deleted by the admin */
  deleted(kind: ContentKind, access: Access): Promise<string>;
  /** the answers that differ from the same call about an id that names nothing */
  shapes: string[];
}

interface Row {
  name: string;
  /** what the call is about (the organization, a space, a collection, a parent): made per call when the call changes it */
  target(x: Ctx): string | Promise<string>;
  call(c: Client, id: string, x: Ctx, who: Who): Promise<Result>;
  /** expected status per caller, in the order of WHO */
  expect: number[];
  /** the statuses that must be the same, body included, as the same call about an unknown id (default: 404) */
  ghost?: number[];
  /** callers whose 404 is about something else than the target (the grant, the target organization) */
  noGhost?: Who[];
}

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

const S = (id: string) => contentPath('space', id);
const C = (id: string) => contentPath('collection', id);

// Reading of the expectations:
// - open content: every member with a role reads it (org role through `inherit`), the guest and the
//   team member through their grants; whoever is not admin on it gets 403 for admin actions;
// - restricted content: only the admin and the two grantees see it; the members with a role get the
//   same 404 as for an id that does not exist;
// - the stranger is not a member: 404 everywhere; no token or a bad one: 401.
//                                                                                          admin create review edit comment read guestG team restr stranger bad none
const SPACE_ROWS: Row[] = [
  {
    name: 'POST org spaces (top level)',
    target: (x) => x.orgId,
    call: (c, org) => c.post(`/v1/orgs/${org}/spaces`, { title: 'Made in the matrix' }),
    expect: [201, 201, 403, 403, 403, 403, 403, 403, 403, 404, 401, 401],
  },
  {
    name: 'POST org spaces (parent: the open collection)',
    target: (x) => x.item.collection.open,
    call: (c, parent, x) => c.post(`/v1/orgs/${x.orgId}/spaces`, { title: 'Made in the matrix', parent }),
    expect: [201, 201, 403, 403, 403, 403, 403, 403, 403, 404, 401, 401],
    ghost: [400, 404],
  },
  // A parent the caller cannot see is the same 400 as a parent that does not exist.
  {
    name: 'POST org spaces (parent: the restricted collection)',
    target: (x) => x.item.collection.restricted,
    call: (c, parent, x) => c.post(`/v1/orgs/${x.orgId}/spaces`, { title: 'Made in the matrix', parent }),
    expect: [201, 400, 400, 400, 400, 400, 403, 403, 400, 404, 401, 401],
    ghost: [400, 404],
  },
  { name: 'GET org spaces', target: (x) => x.orgId, call: (c, org) => c.get(`/v1/orgs/${org}/spaces`), expect: [200, 200, 200, 200, 200, 200, 200, 200, 200, 404, 401, 401] },
  { name: 'GET space (open)', target: (x) => x.item.space.open, call: (c, id) => c.get(S(id)), expect: [200, 200, 200, 200, 200, 200, 200, 200, 200, 404, 401, 401] },
  { name: 'GET space (restricted)', target: (x) => x.item.space.restricted, call: (c, id) => c.get(S(id)), expect: [200, 404, 404, 404, 404, 404, 200, 200, 404, 404, 401, 401] },
  // A share key opens nothing yet: the same answers.
  {
    name: 'GET space ?shareKey= (restricted)',
    target: (x) => x.item.space.restricted,
    call: (c, id) => c.get(`${S(id)}?shareKey=some-share-key`),
    expect: [200, 404, 404, 404, 404, 404, 200, 200, 404, 404, 401, 401],
  },
  {
    name: 'PATCH space (open)',
    target: (x) => x.item.space.open,
    call: (c, id) => c.patch(S(id), { title: 'Open space' }),
    expect: [200, 403, 403, 403, 403, 403, 403, 403, 403, 404, 401, 401],
  },
  {
    name: 'PATCH space (restricted)',
    target: (x) => x.item.space.restricted,
    call: (c, id) => c.patch(S(id), { title: 'Restricted space' }),
    expect: [200, 404, 404, 404, 404, 404, 403, 403, 404, 404, 401, 401],
  },
  {
    name: 'DELETE space (fresh open)',
    target: (x) => x.fresh('space', 'open'),
    call: (c, id) => c.delete(S(id)),
    expect: [205, 403, 403, 403, 403, 403, 403, 403, 403, 404, 401, 401],
  },
  {
    name: 'DELETE space (fresh restricted)',
    target: (x) => x.fresh('space', 'restricted'),
    call: (c, id) => c.delete(S(id)),
    expect: [205, 404, 404, 404, 404, 404, 403, 403, 404, 404, 401, 401],
  },
  // A deleted space keeps its access rules (it can be restored): who saw it is still refused with 403.
  {
    name: 'DELETE space (open, already deleted)',
    target: (x) => x.deleted('space', 'open'),
    call: (c, id) => c.delete(S(id)),
    expect: [204, 403, 403, 403, 403, 403, 403, 403, 403, 404, 401, 401],
  },
  {
    name: 'DELETE space (restricted, already deleted)',
    target: (x) => x.deleted('space', 'restricted'),
    call: (c, id) => c.delete(S(id)),
    expect: [204, 404, 404, 404, 404, 404, 403, 403, 404, 404, 401, 401],
  },
  // The copy goes next to the original (top level): read on the space and the create role in the organization.
  {
    name: 'POST space duplicate (open)',
    target: (x) => x.item.space.open,
    call: (c, id) => c.post(`${S(id)}/duplicate`),
    expect: [201, 201, 403, 403, 403, 403, 403, 403, 403, 404, 401, 401],
  },
  {
    name: 'POST space duplicate (restricted)',
    target: (x) => x.item.space.restricted,
    call: (c, id) => c.post(`${S(id)}/duplicate`),
    expect: [201, 404, 404, 404, 404, 404, 403, 403, 404, 404, 401, 401],
  },
  {
    name: 'POST space restore (open, deleted by the admin)',
    target: (x) => x.deleted('space', 'open'),
    call: (c, id) => c.post(`${S(id)}/restore`),
    expect: [200, 403, 403, 403, 403, 403, 403, 403, 403, 404, 401, 401],
  },
  {
    name: 'POST space restore (restricted, deleted by the admin)',
    target: (x) => x.deleted('space', 'restricted'),
    call: (c, id) => c.post(`${S(id)}/restore`),
    expect: [200, 404, 404, 404, 404, 404, 403, 403, 404, 404, 401, 401],
  },
  // Authorization comes before validation: only an admin learns that the space is not deleted.
  {
    name: 'POST space restore (open, live)',
    target: (x) => x.item.space.open,
    call: (c, id) => c.post(`${S(id)}/restore`),
    expect: [400, 403, 403, 403, 403, 403, 403, 403, 403, 404, 401, 401],
  },
  {
    name: 'POST space move (fresh open → the open collection)',
    target: (x) => x.fresh('space', 'open'),
    call: (c, id, x) => c.post(`${S(id)}/move`, { parent: x.item.collection.open }),
    expect: [200, 403, 403, 403, 403, 403, 403, 403, 403, 404, 401, 401],
  },
  {
    name: 'POST space move (fresh restricted → the open collection)',
    target: (x) => x.fresh('space', 'restricted'),
    call: (c, id, x) => c.post(`${S(id)}/move`, { parent: x.item.collection.open }),
    expect: [200, 404, 404, 404, 404, 404, 403, 403, 404, 404, 401, 401],
  },
  // Transfers: admin on the space is checked first (403 for whoever sees it without being admin), then
  // the target organization: the same organization is a 412; one the caller is not a member of, a 404
  // (the admin is no member of the stranger's organization, so nobody can transfer there: the stranger
  // is admin there but sees nothing here); the admin's second organization is the one success.
  {
    name: 'POST space transfer (fresh open → its own organization)',
    target: (x) => x.fresh('space', 'open'),
    call: (c, id, x) => c.post(`${S(id)}/transfer`, { organization: x.orgId }),
    expect: [412, 403, 403, 403, 403, 403, 403, 403, 403, 404, 401, 401],
  },
  {
    name: "POST space transfer (fresh open → the stranger's organization)",
    target: (x) => x.fresh('space', 'open'),
    call: (c, id, x) => c.post(`${S(id)}/transfer`, { organization: x.strangerOrgId }),
    expect: [404, 403, 403, 403, 403, 403, 403, 403, 403, 404, 401, 401],
    noGhost: ['admin'],
  },
  {
    name: "POST space transfer (fresh restricted → the stranger's organization)",
    target: (x) => x.fresh('space', 'restricted'),
    call: (c, id, x) => c.post(`${S(id)}/transfer`, { organization: x.strangerOrgId }),
    expect: [404, 404, 404, 404, 404, 404, 403, 403, 404, 404, 401, 401],
    noGhost: ['admin'],
  },
  {
    name: "POST space transfer (fresh open → the admin's second organization)",
    target: (x) => x.fresh('space', 'open'),
    call: (c, id, x) => c.post(`${S(id)}/transfer`, { organization: x.secondOrgId }),
    expect: [200, 403, 403, 403, 403, 403, 403, 403, 403, 404, 401, 401],
  },
  {
    name: "POST space transfer (fresh restricted → the admin's second organization)",
    target: (x) => x.fresh('space', 'restricted'),
    call: (c, id, x) => c.post(`${S(id)}/transfer`, { organization: x.secondOrgId }),
    expect: [200, 404, 404, 404, 404, 404, 403, 403, 404, 404, 401, 401],
  },
];

//                                                                                          admin create review edit comment read guestG team restr stranger bad none
const COLLECTION_ROWS: Row[] = [
  {
    name: 'POST org collections (top level)',
    target: (x) => x.orgId,
    call: (c, org) => c.post(`/v1/orgs/${org}/collections`, { title: 'Made in the matrix' }),
    expect: [201, 201, 403, 403, 403, 403, 403, 403, 403, 404, 401, 401],
  },
  {
    name: 'POST org collections (parent: the open collection)',
    target: (x) => x.item.collection.open,
    call: (c, parent, x) => c.post(`/v1/orgs/${x.orgId}/collections`, { title: 'Made in the matrix', parent }),
    expect: [201, 201, 403, 403, 403, 403, 403, 403, 403, 404, 401, 401],
    ghost: [400, 404],
  },
  {
    name: 'POST org collections (parent: the restricted collection)',
    target: (x) => x.item.collection.restricted,
    call: (c, parent, x) => c.post(`/v1/orgs/${x.orgId}/collections`, { title: 'Made in the matrix', parent }),
    expect: [201, 400, 400, 400, 400, 400, 403, 403, 400, 404, 401, 401],
    ghost: [400, 404],
  },
  {
    name: 'GET org collections',
    target: (x) => x.orgId,
    call: (c, org) => c.get(`/v1/orgs/${org}/collections`),
    expect: [200, 200, 200, 200, 200, 200, 200, 200, 200, 404, 401, 401],
  },
  {
    name: 'GET org collections ?nested=false',
    target: (x) => x.orgId,
    call: (c, org) => c.get(`/v1/orgs/${org}/collections?nested=false`),
    expect: [200, 200, 200, 200, 200, 200, 200, 200, 200, 404, 401, 401],
  },
  { name: 'GET collection (open)', target: (x) => x.item.collection.open, call: (c, id) => c.get(C(id)), expect: [200, 200, 200, 200, 200, 200, 200, 200, 200, 404, 401, 401] },
  {
    name: 'GET collection (restricted)',
    target: (x) => x.item.collection.restricted,
    call: (c, id) => c.get(C(id)),
    expect: [200, 404, 404, 404, 404, 404, 200, 200, 404, 404, 401, 401],
  },
  {
    name: 'PATCH collection (open)',
    target: (x) => x.item.collection.open,
    call: (c, id) => c.patch(C(id), { title: 'Open collection', description: 'Everyone reads it' }),
    expect: [200, 403, 403, 403, 403, 403, 403, 403, 403, 404, 401, 401],
  },
  {
    name: 'PATCH collection (restricted)',
    target: (x) => x.item.collection.restricted,
    call: (c, id) => c.patch(C(id), { title: 'Restricted collection', description: null }),
    expect: [200, 404, 404, 404, 404, 404, 403, 403, 404, 404, 401, 401],
  },
  {
    name: 'DELETE collection (fresh open)',
    target: (x) => x.fresh('collection', 'open'),
    call: (c, id) => c.delete(C(id)),
    expect: [205, 403, 403, 403, 403, 403, 403, 403, 403, 404, 401, 401],
  },
  {
    name: 'DELETE collection (fresh restricted)',
    target: (x) => x.fresh('collection', 'restricted'),
    call: (c, id) => c.delete(C(id)),
    expect: [205, 404, 404, 404, 404, 404, 403, 403, 404, 404, 401, 401],
  },
  {
    name: 'DELETE collection (open, already deleted)',
    target: (x) => x.deleted('collection', 'open'),
    call: (c, id) => c.delete(C(id)),
    expect: [204, 403, 403, 403, 403, 403, 403, 403, 403, 404, 401, 401],
  },
  {
    name: 'DELETE collection (restricted, already deleted)',
    target: (x) => x.deleted('collection', 'restricted'),
    call: (c, id) => c.delete(C(id)),
    expect: [204, 404, 404, 404, 404, 404, 403, 403, 404, 404, 401, 401],
  },
  {
    name: 'GET collection spaces (open)',
    target: (x) => x.item.collection.open,
    call: (c, id) => c.get(`${C(id)}/spaces`),
    expect: [200, 200, 200, 200, 200, 200, 200, 200, 200, 404, 401, 401],
  },
  {
    name: 'GET collection spaces (restricted)',
    target: (x) => x.item.collection.restricted,
    call: (c, id) => c.get(`${C(id)}/spaces`),
    expect: [200, 404, 404, 404, 404, 404, 200, 200, 404, 404, 401, 401],
  },
  {
    name: 'POST collection move (fresh open → the open collection)',
    target: (x) => x.fresh('collection', 'open'),
    call: (c, id, x) => c.post(`${C(id)}/move`, { parent: x.item.collection.open }),
    expect: [200, 403, 403, 403, 403, 403, 403, 403, 403, 404, 401, 401],
  },
  {
    name: 'POST collection move (fresh restricted → the open collection)',
    target: (x) => x.fresh('collection', 'restricted'),
    call: (c, id, x) => c.post(`${C(id)}/move`, { parent: x.item.collection.open }),
    expect: [200, 404, 404, 404, 404, 404, 403, 403, 404, 404, 401, 401],
  },
  // As for spaces (see there): admin on the collection first, then the target organization.
  {
    name: 'POST collection transfer (fresh open → its own organization)',
    target: (x) => x.fresh('collection', 'open'),
    call: (c, id, x) => c.post(`${C(id)}/transfer`, { organization: x.orgId }),
    expect: [412, 403, 403, 403, 403, 403, 403, 403, 403, 404, 401, 401],
  },
  {
    name: "POST collection transfer (fresh open → the stranger's organization)",
    target: (x) => x.fresh('collection', 'open'),
    call: (c, id, x) => c.post(`${C(id)}/transfer`, { organization: x.strangerOrgId }),
    expect: [404, 403, 403, 403, 403, 403, 403, 403, 403, 404, 401, 401],
    noGhost: ['admin'],
  },
  {
    name: "POST collection transfer (fresh restricted → the stranger's organization)",
    target: (x) => x.fresh('collection', 'restricted'),
    call: (c, id, x) => c.post(`${C(id)}/transfer`, { organization: x.strangerOrgId }),
    expect: [404, 404, 404, 404, 404, 404, 403, 403, 404, 404, 401, 401],
    noGhost: ['admin'],
  },
  {
    name: "POST collection transfer (fresh open → the admin's second organization)",
    target: (x) => x.fresh('collection', 'open'),
    call: (c, id, x) => c.post(`${C(id)}/transfer`, { organization: x.secondOrgId }),
    expect: [200, 403, 403, 403, 403, 403, 403, 403, 403, 404, 401, 401],
  },
  {
    name: "POST collection transfer (fresh restricted → the admin's second organization)",
    target: (x) => x.fresh('collection', 'restricted'),
    call: (c, id, x) => c.post(`${C(id)}/transfer`, { organization: x.secondOrgId }),
    expect: [200, 404, 404, 404, 404, 404, 403, 403, 404, 404, 401, 401],
  },
];

/**
 * The permission routes of spaces and of collections follow the same policy: the rows are the same
 * for both kinds. Reading needs read on the item; every change needs admin on it.
 */
function permissionRows(kind: ContentKind): Row[] {
  const P = (id: string) => `${contentPath(kind, id)}/permissions`;
  //                                                                                        admin create review edit comment read guestG team restr stranger bad none
  return [
    {
      name: `POST ${kind} permissions (fresh open)`,
      target: (x) => x.fresh(kind, 'open'),
      call: (c, id, x) => c.post(P(id), { role: 'edit', users: [x.self.comment] }),
      expect: [204, 403, 403, 403, 403, 403, 403, 403, 403, 404, 401, 401],
    },
    {
      name: `POST ${kind} permissions (fresh restricted)`,
      target: (x) => x.fresh(kind, 'restricted'),
      call: (c, id, x) => c.post(P(id), { role: 'edit', teams: [x.team] }),
      expect: [204, 404, 404, 404, 404, 404, 403, 403, 404, 404, 401, 401],
    },
    {
      name: `GET ${kind} permissions/users (open)`,
      target: (x) => x.item[kind].open,
      call: (c, id) => c.get(`${P(id)}/users`),
      expect: [200, 200, 200, 200, 200, 200, 200, 200, 200, 404, 401, 401],
    },
    {
      name: `GET ${kind} permissions/users (restricted)`,
      target: (x) => x.item[kind].restricted,
      call: (c, id) => c.get(`${P(id)}/users`),
      expect: [200, 404, 404, 404, 404, 404, 200, 200, 404, 404, 401, 401],
    },
    {
      name: `GET ${kind} permissions/teams (open)`,
      target: (x) => x.item[kind].open,
      call: (c, id) => c.get(`${P(id)}/teams`),
      expect: [200, 200, 200, 200, 200, 200, 200, 200, 200, 404, 401, 401],
    },
    {
      name: `GET ${kind} permissions/teams (restricted)`,
      target: (x) => x.item[kind].restricted,
      call: (c, id) => c.get(`${P(id)}/teams`),
      expect: [200, 404, 404, 404, 404, 404, 200, 200, 404, 404, 401, 401],
    },
    {
      name: `GET ${kind} permissions/aggregate (open)`,
      target: (x) => x.item[kind].open,
      call: (c, id) => c.get(`${P(id)}/aggregate`),
      expect: [200, 200, 200, 200, 200, 200, 200, 200, 200, 404, 401, 401],
    },
    {
      name: `GET ${kind} permissions/aggregate (restricted)`,
      target: (x) => x.item[kind].restricted,
      call: (c, id) => c.get(`${P(id)}/aggregate`),
      expect: [200, 404, 404, 404, 404, 404, 200, 200, 404, 404, 401, 401],
    },
    {
      name: `GET ${kind} permissions/aggregate ?role=comment (restricted)`,
      target: (x) => x.item[kind].restricted,
      call: (c, id) => c.get(`${P(id)}/aggregate?role=comment`),
      expect: [200, 404, 404, 404, 404, 404, 200, 200, 404, 404, 401, 401],
    },
    {
      name: `PATCH ${kind} permissions/users/{guestWithGrant} (fresh open)`,
      target: (x) => x.fresh(kind, 'open'),
      call: (c, id, x) => c.patch(`${P(id)}/users/${x.self.guestWithGrant}`, { role: 'comment' }),
      expect: [204, 403, 403, 403, 403, 403, 403, 403, 403, 404, 401, 401],
    },
    {
      name: `PATCH ${kind} permissions/users/{guestWithGrant} (fresh restricted)`,
      target: (x) => x.fresh(kind, 'restricted'),
      call: (c, id, x) => c.patch(`${P(id)}/users/${x.self.guestWithGrant}`, { role: 'comment' }),
      expect: [204, 404, 404, 404, 404, 404, 403, 403, 404, 404, 401, 401],
    },
    {
      name: `PATCH ${kind} permissions/teams/{team} (fresh open)`,
      target: (x) => x.fresh(kind, 'open'),
      call: (c, id, x) => c.patch(`${P(id)}/teams/${x.team}`, { role: 'edit' }),
      expect: [204, 403, 403, 403, 403, 403, 403, 403, 403, 404, 401, 401],
    },
    {
      name: `PATCH ${kind} permissions/teams/{team} (fresh restricted)`,
      target: (x) => x.fresh(kind, 'restricted'),
      call: (c, id, x) => c.patch(`${P(id)}/teams/${x.team}`, { role: null }),
      expect: [204, 404, 404, 404, 404, 404, 403, 403, 404, 404, 401, 401],
    },
    // No grant to change: a 404 (about the grant) for the admin only; the others are refused first.
    {
      name: `PATCH ${kind} permissions/users/{restrictedMember} without a grant (open)`,
      target: (x) => x.item[kind].open,
      call: (c, id, x) => c.patch(`${P(id)}/users/${x.self.restrictedMember}`, { role: 'read' }),
      expect: [404, 403, 403, 403, 403, 403, 403, 403, 403, 404, 401, 401],
      noGhost: ['admin'],
    },
    {
      name: `PATCH ${kind} permissions/users/{restrictedMember} without a grant (restricted)`,
      target: (x) => x.item[kind].restricted,
      call: (c, id, x) => c.patch(`${P(id)}/users/${x.self.restrictedMember}`, { role: 'read' }),
      expect: [404, 404, 404, 404, 404, 404, 403, 403, 404, 404, 401, 401],
      noGhost: ['admin'],
    },
    {
      name: `DELETE ${kind} permissions/users/{guestWithGrant} (fresh open)`,
      target: (x) => x.fresh(kind, 'open'),
      call: (c, id, x) => c.delete(`${P(id)}/users/${x.self.guestWithGrant}`),
      expect: [205, 403, 403, 403, 403, 403, 403, 403, 403, 404, 401, 401],
    },
    {
      name: `DELETE ${kind} permissions/users/{guestWithGrant} (fresh restricted)`,
      target: (x) => x.fresh(kind, 'restricted'),
      call: (c, id, x) => c.delete(`${P(id)}/users/${x.self.guestWithGrant}`),
      expect: [205, 404, 404, 404, 404, 404, 403, 403, 404, 404, 401, 401],
    },
    {
      name: `DELETE ${kind} permissions/teams/{team} (fresh open)`,
      target: (x) => x.fresh(kind, 'open'),
      call: (c, id, x) => c.delete(`${P(id)}/teams/${x.team}`),
      expect: [205, 403, 403, 403, 403, 403, 403, 403, 403, 404, 401, 401],
    },
    {
      name: `DELETE ${kind} permissions/teams/{team} (fresh restricted)`,
      target: (x) => x.fresh(kind, 'restricted'),
      call: (c, id, x) => c.delete(`${P(id)}/teams/${x.team}`),
      expect: [205, 404, 404, 404, 404, 404, 403, 403, 404, 404, 401, 401],
    },
    // Nothing to remove: 204 for the admin; changes nothing, so the shared items serve.
    {
      name: `DELETE ${kind} permissions/users/{restrictedMember} without a grant (open)`,
      target: (x) => x.item[kind].open,
      call: (c, id, x) => c.delete(`${P(id)}/users/${x.self.restrictedMember}`),
      expect: [204, 403, 403, 403, 403, 403, 403, 403, 403, 404, 401, 401],
    },
    {
      name: `DELETE ${kind} permissions/users/{restrictedMember} without a grant (restricted)`,
      target: (x) => x.item[kind].restricted,
      call: (c, id, x) => c.delete(`${P(id)}/users/${x.self.restrictedMember}`),
      expect: [204, 404, 404, 404, 404, 404, 403, 403, 404, 404, 401, 401],
    },
  ];
}

// Whether the caller may see the member is identity's decision (guests see only themselves).
//                                                                                          admin create review edit comment read guestG team restr stranger bad none
const MEMBER_SPACE_ROWS: Row[] = [
  {
    name: "GET member spaces (the read member's)",
    target: (x) => x.orgId,
    call: (c, org, x) => c.get(`/v1/orgs/${org}/members/${x.self.read}/spaces`),
    expect: [200, 200, 200, 200, 200, 200, 403, 403, 200, 404, 401, 401],
  },
  {
    name: "GET member spaces (the guest with a grant's)",
    target: (x) => x.orgId,
    call: (c, org, x) => c.get(`/v1/orgs/${org}/members/${x.self.guestWithGrant}/spaces`),
    expect: [200, 200, 200, 200, 200, 200, 200, 403, 200, 404, 401, 401],
  },
  {
    name: 'GET member spaces (their own)',
    target: (x) => x.orgId,
    call: (c, org, x, who) => c.get(`/v1/orgs/${org}/members/${x.self[who]}/spaces`),
    expect: [200, 200, 200, 200, 200, 200, 200, 200, 200, 404, 401, 401],
  },
];

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
