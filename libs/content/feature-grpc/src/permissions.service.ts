import { invalid, notFound } from '@bindery/platform/errors';
import type { Caller } from '@bindery/platform/grpc';
import { assertRole, ContentKind, effectiveRole, PrincipalKind, TreeItem } from '@bindery/content/domain';
import type { GrantKey } from '@bindery/content/data-access';
import { contentPermissionsV1 as pb } from '@bindery/shared/contracts';
import { decodeCursor, resolveLimit, toPage } from '@bindery/shared/pagination';
import { hasAtLeast, isRole, Role } from '@bindery/shared/roles';
import { ContentDeps, nowOf } from './content-deps';
import { grantEvent, keyOf } from './grant-events';
import { collectionItem, OrgView, spaceItem } from './org-view';

const MAX_PRINCIPALS = 100;

/** The space or collection a permission call is about, and the caller's role on it (404 unless they can read it). */
async function targetOf(deps: ContentDeps, caller: Caller, target: pb.ContentTarget | undefined) {
  const kind = target?.kind as ContentKind;
  if (kind !== 'space' && kind !== 'collection') throw invalid('target must be a space or a collection.');
  const record = kind === 'space' ? await deps.spaces.findLive(target!.id) : await deps.collections.findLive(target!.id);
  if (!record) throw notFound(kind === 'space' ? 'Space' : 'Collection');
  const view = await OrgView.load(deps, record.organizationId, caller.userId);
  const item: TreeItem = kind === 'space' ? spaceItem(record) : collectionItem(record);
  const role = view.roleOf(item);
  assertRole(role, 'read', kind, 'Reading');
  return { kind, id: record._id, organizationId: record.organizationId, view, item, role };
}

function roleOrNone(role: string | undefined): Role | undefined {
  if (role === undefined) return undefined;
  if (!isRole(role)) throw invalid('role must be one of admin, create, review, edit, comment, read, or null.');
  return role;
}

/** Gives users and teams a role on the content (admins); role null withdraws their grants. */
export async function invite(deps: ContentDeps, caller: Caller, req: pb.InviteRequest): Promise<void> {
  const t = await targetOf(deps, caller, req.target);
  assertRole(t.role, 'admin', t.kind, 'Managing permissions');
  const role = roleOrNone(req.role);
  const users = [...new Set(req.users)];
  const teams = [...new Set(req.teams)];
  if (!users.length && !teams.length) throw invalid('Give users or teams to invite.');
  if (users.length + teams.length > MAX_PRINCIPALS) throw invalid(`At most ${MAX_PRINCIPALS} users and teams at once.`);
  for (const u of users) {
    if (!(await deps.access.accessOf(t.organizationId, u))) throw invalid(`users: ${u} is not a member of the organization.`);
  }
  const known = await deps.teams.existing(t.organizationId, teams);
  const unknown = teams.find((id) => !known.has(id));
  if (unknown) throw invalid(`teams: ${unknown} is not a team of the organization.`);
  const at = nowOf(deps);
  const keys: GrantKey[] = [
    ...users.map((id) => ({ targetKind: t.kind, targetId: t.id, principalKind: 'user' as const, principalId: id })),
    ...teams.map((id) => ({ targetKind: t.kind, targetId: t.id, principalKind: 'team' as const, principalId: id })),
  ];
  await deps.transaction(async (session) => {
    for (const key of keys) {
      if (role) await deps.grants.set(t.organizationId, key, role, at, [grantEvent(t.organizationId, key, role)], session);
      else await deps.grants.withdraw(key, at, [grantEvent(t.organizationId, key, undefined)], session);
    }
  });
}

async function grantsPage(deps: ContentDeps, caller: Caller, req: pb.ListGrantsRequest, principalKind: PrincipalKind) {
  const t = await targetOf(deps, caller, req.target);
  const limit = resolveLimit(req.page?.limit);
  const rows = await deps.grants.page(t.kind, t.id, principalKind, decodeCursor(req.page?.page || undefined), limit);
  const count = await deps.grants.countOf(t.kind, t.id, principalKind);
  return toPage(
    rows,
    limit,
    count,
    (g) => ({ k: g.principalId, id: g._id }),
    (g) => ({ id: g.principalId, permission: g.role }),
  );
}

export async function listUserGrants(deps: ContentDeps, caller: Caller, req: pb.ListGrantsRequest): Promise<pb.ListUserGrantsResponse> {
  const page = await grantsPage(deps, caller, req, 'user');
  return { items: page.items.map((g) => ({ userId: g.id, permission: g.permission })), page: { count: page.count, nextPage: page.nextPage } };
}

export async function listTeamGrants(deps: ContentDeps, caller: Caller, req: pb.ListGrantsRequest): Promise<pb.ListTeamGrantsResponse> {
  const page = await grantsPage(deps, caller, req, 'team');
  return { items: page.items.map((g) => ({ teamId: g.id, permission: g.permission })), page: { count: page.count, nextPage: page.nextPage } };
}

function grantKey(req: pb.GrantRef | undefined, kind: ContentKind, id: string): GrantKey {
  const principalKind = req?.principalKind;
  if (principalKind !== 'user' && principalKind !== 'team') throw invalid('A permission belongs to a user or a team.');
  return { targetKind: kind, targetId: id, principalKind, principalId: req!.principalId };
}

/** Changes an existing grant (admins); role null withdraws it. */
export async function updateGrant(deps: ContentDeps, caller: Caller, req: pb.UpdateGrantRequest): Promise<void> {
  const t = await targetOf(deps, caller, req.grant?.target);
  assertRole(t.role, 'admin', t.kind, 'Managing permissions');
  const key = grantKey(req.grant, t.kind, t.id);
  const role = roleOrNone(req.role);
  if (!(await deps.grants.find(key))) throw notFound(key.principalKind === 'user' ? 'User permission' : 'Team permission');
  const at = nowOf(deps);
  if (role) await deps.grants.set(t.organizationId, key, role, at, [grantEvent(t.organizationId, key, role)]);
  else await deps.grants.withdraw(key, at, [grantEvent(t.organizationId, key, undefined)]);
}

export async function removeGrant(deps: ContentDeps, caller: Caller, req: pb.GrantRef): Promise<{ removed: boolean }> {
  const t = await targetOf(deps, caller, req.target);
  assertRole(t.role, 'admin', t.kind, 'Managing permissions');
  const key = grantKey(req, t.kind, t.id);
  return { removed: await deps.grants.withdraw(key, nowOf(deps), [grantEvent(t.organizationId, keyOf(key), undefined)]) };
}

/**
 * Everyone who can read the content, with their effective role from every source (organization
 * role, default levels, grants on it and on the collections above it, their teams' grants).
 */
export async function listAggregate(deps: ContentDeps, caller: Caller, req: pb.ListAggregateRequest): Promise<pb.ListUserGrantsResponse> {
  const t = await targetOf(deps, caller, req.target);
  const wanted = roleOrNone(req.role);
  const limit = resolveLimit(req.page?.limit);
  const cursor = decodeCursor(req.page?.page || undefined);
  const chain = [{ kind: t.kind, id: t.id }, ...collectionsAbove(t.view, t.item)];
  const grants = await deps.grants.onTargets(chain);
  const members = await deps.access.membersOf(t.organizationId);
  const everyone = members
    .map((m) => ({ userId: m.userId, role: effectiveRole({ userId: m.userId, member: { role: m.role as Role | null, teams: m.teams } }, t.item, t.view, grants) }))
    .filter((m) => hasAtLeast(m.role, 'read') && (!wanted || m.role === wanted))
    .sort((a, b) => (a.userId < b.userId ? -1 : 1));
  const start = cursor ? everyone.findIndex((m) => m.userId > cursor.id) : 0;
  const rows = start < 0 ? [] : everyone.slice(start, start + limit + 1);
  const page = toPage(
    rows,
    limit,
    everyone.length,
    (m) => ({ id: m.userId }),
    (m) => ({ userId: m.userId, permission: m.role! }),
  );
  return { items: page.items, page: { count: page.count, nextPage: page.nextPage } };
}

function collectionsAbove(view: OrgView, item: TreeItem): Array<{ kind: ContentKind; id: string }> {
  const out: Array<{ kind: ContentKind; id: string }> = [];
  for (let at = item.parent ? view.collection(item.parent) : undefined; at && out.length < 1000; at = at.parent ? view.collection(at.parent) : undefined)
    out.push({ kind: 'collection', id: at.id });
  return out;
}

const MAX_ROLE_QUERIES = 100;

/** The effective role of each given user on content the caller can read (absent: no access). */
export async function effectiveRoles(deps: ContentDeps, caller: Caller, req: pb.EffectiveRolesRequest): Promise<pb.EffectiveRolesResponse> {
  const t = await targetOf(deps, caller, req.target);
  const users = [...new Set(req.users)];
  if (!users.length || users.length > MAX_ROLE_QUERIES) throw invalid(`Give 1 to ${MAX_ROLE_QUERIES} users.`);
  const chain = [{ kind: t.kind, id: t.id }, ...collectionsAbove(t.view, t.item)];
  const grants = await deps.grants.onTargets(chain);
  const items: pb.EffectiveRole[] = [];
  for (const userId of users) {
    const member = await deps.access.accessOf(t.organizationId, userId);
    const role = member ? effectiveRole({ userId, member: { role: member.role as Role | null, teams: member.teams } }, t.item, t.view, grants) : null;
    items.push(role ? { userId, role } : { userId });
  }
  return { items };
}
