import { ContentKind, contentPath } from './content-fixtures';
import { Client } from './matrix';

// The rows of the content authorization matrix (content-authorization.e2e.spec.ts): who calls, what
// the context holds, and the expected status of each space and collection call per caller.

// The callers, besides one member per organization role (admin … read):
// - guestWithGrant: a guest (member without a role) with a direct `read` grant on every space and
//   collection under test;
// - teamMember: another guest, in a team that has a `comment` grant on every space and collection
//   under test: the team grant is their only access;
// - restrictedMember: a `read` member with no grant anywhere (404 on restricted content);
// - stranger: the admin of another organization; then a token that was never issued, and none.
export type Who = 'admin' | 'create' | 'review' | 'edit' | 'comment' | 'read' | 'guestWithGrant' | 'teamMember' | 'restrictedMember' | 'stranger' | 'badToken' | 'noToken';
export const WHO: Who[] = ['admin', 'create', 'review', 'edit', 'comment', 'read', 'guestWithGrant', 'teamMember', 'restrictedMember', 'stranger', 'badToken', 'noToken'];
export type Result = { status: number; body: unknown };

/**
 * Two of each kind of content, made by the organization admin, each with the guest's read grant and
 * the team's comment grant:
 * - open: the default level `inherit` (at the top level: the member's organization role);
 * - restricted: the default level null, so members see it only through a grant (the admin: always).
 */
export type Access = 'open' | 'restricted';

export interface Ctx {
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

export interface Row {
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

export const S = (id: string) => contentPath('space', id);
export const C = (id: string) => contentPath('collection', id);

// Reading of the expectations:
// - open content: every member with a role reads it (org role through `inherit`), the guest and the
//   team member through their grants; whoever is not admin on it gets 403 for admin actions;
// - restricted content: only the admin and the two grantees see it; the members with a role get the
//   same 404 as for an id that does not exist;
// - the stranger is not a member: 404 everywhere; no token or a bad one: 401.
//                                                                                          admin create review edit comment read guestG team restr stranger bad none
export const SPACE_ROWS: Row[] = [
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
export const COLLECTION_ROWS: Row[] = [
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
