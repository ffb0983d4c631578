import { ContentKind, contentPath } from './content-fixtures';
import { Row } from './content-authorization-rows';

// The rows of the content authorization matrix for the permission routes and members' spaces.

/**
 * The permission routes of spaces and of collections follow the same policy: the rows are the same
 * for both kinds. Reading needs read on the item; every change needs admin on it.
 */
export function permissionRows(kind: ContentKind): Row[] {
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
export const MEMBER_SPACE_ROWS: Row[] = [
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
