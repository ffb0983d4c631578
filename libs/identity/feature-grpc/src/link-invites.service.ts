import { createHash } from 'node:crypto';
import { notFound } from '@bindery/platform/errors';
import { Caller } from '@bindery/platform/grpc';
import {
  assertCanJoinByEmailDomain,
  assertCanJoinWithLinkInvite,
  assertCanManageLinkInvites,
  LinkInviteRecord,
  linkInviteDocId,
  newMembership,
  RoleOrGuest,
  Standing,
  UserRecord,
} from '@bindery/identity/domain';
import { newSecret, nowIso } from '@bindery/shared/ids';
import { decodeCursor, Page, PageRequest, resolveLimit, toPage } from '@bindery/shared/pagination';
import { IdentityDeps } from './identity-deps';
import { identityEvents } from './identity-events';
import { linkInviteEvent } from './link-invite-events';
import { loadVisible } from './organizations.service';

/** Invite ids are the secret of the join URL: 256 random bits, recognisable when they leak. */
const INVITE_ID_PREFIX = 'gb_invite';

export interface LinkInviteView {
  /** the invite id, shown to admins only */
  id: string;
  invite: LinkInviteRecord;
  /** the caller's standing, for `redundant` */
  standing: Standing;
}

/** The reference an invite is stored and announced under; the id cannot be recovered from it. */
export function linkInviteRef(inviteId: string): string {
  return createHash('sha256').update(inviteId).digest('base64url');
}

function view(invite: LinkInviteRecord, standing: Standing): LinkInviteView {
  // A live invite always keeps its id; only deletion removes it.
  if (!invite.secret) throw notFound('Invite');
  return { id: invite.secret, invite, standing };
}

async function asAdmin(deps: IdentityDeps, caller: Caller, organizationId: string): Promise<Standing> {
  const { standing } = await loadVisible(deps, caller, organizationId);
  assertCanManageLinkInvites(standing);
  return standing;
}

async function loadInvite(deps: IdentityDeps, organizationId: string, inviteId: string): Promise<LinkInviteRecord> {
  const invite = await deps.linkInvites.find(organizationId, linkInviteRef(inviteId));
  if (!invite) throw notFound('Invite');
  return invite;
}

/** Creates an invite link giving `role` (admins). Event: link_invite.created. */
export async function createLinkInvite(deps: IdentityDeps, caller: Caller, organizationId: string, role: RoleOrGuest): Promise<LinkInviteView> {
  const standing = await asAdmin(deps, caller, organizationId);
  const id = newSecret(INVITE_ID_PREFIX);
  const ref = linkInviteRef(id);
  const now = nowIso();
  const invite = await deps.linkInvites.insert(
    { _id: linkInviteDocId(organizationId, ref), organizationId, secret: id, role, createdBy: caller.userId, createdAt: now, updatedAt: now },
    [linkInviteEvent('created', organizationId, ref)],
  );
  deps.eventsRecorded();
  return view(invite, standing);
}

/** The organization's live invites in creation order, keyset-paginated (admins). */
export async function listLinkInvites(deps: IdentityDeps, caller: Caller, organizationId: string, page: PageRequest): Promise<Page<LinkInviteView>> {
  const standing = await asAdmin(deps, caller, organizationId);
  const limit = resolveLimit(page.limit);
  const cursor = decodeCursor(page.page);
  const [rows, count] = await Promise.all([deps.linkInvites.list(organizationId, cursor, limit), deps.linkInvites.count(organizationId)]);
  // The cursor holds the stored reference, never the invite id.
  const result = toPage(
    rows,
    limit,
    count,
    (i) => ({ k: i.createdAt, id: i._id }),
    (i) => i,
  );
  return { ...result, items: result.items.filter((i) => i.secret).map((i) => view(i, standing)) };
}

export async function getLinkInvite(deps: IdentityDeps, caller: Caller, organizationId: string, inviteId: string): Promise<LinkInviteView> {
  const standing = await asAdmin(deps, caller, organizationId);
  return view(await loadInvite(deps, organizationId, inviteId), standing);
}

/** Changes the role an invite gives (admins). Event: link_invite.updated, only when it changed. */
export async function updateLinkInvite(
  deps: IdentityDeps,
  caller: Caller,
  organizationId: string,
  inviteId: string,
  role: { value: RoleOrGuest } | undefined,
): Promise<LinkInviteView> {
  const standing = await asAdmin(deps, caller, organizationId);
  const current = await loadInvite(deps, organizationId, inviteId);
  if (role === undefined || role.value === current.role) return view(current, standing);
  const ref = linkInviteRef(inviteId);
  const updated = await deps.linkInvites.updateRole(organizationId, ref, role.value, nowIso(), [linkInviteEvent('updated', organizationId, ref)]);
  if (!updated) throw notFound('Invite');
  deps.eventsRecorded();
  return view(updated, standing);
}

/**
 * Deletes an invite (admins): it can no longer be joined with. Idempotent: false when there was no
 * such invite, or it was deleted already. Event: link_invite.deleted.
 */
export async function deleteLinkInvite(deps: IdentityDeps, caller: Caller, organizationId: string, inviteId: string): Promise<boolean> {
  await asAdmin(deps, caller, organizationId);
  const ref = linkInviteRef(inviteId);
  const deleted = await deps.linkInvites.softDelete(organizationId, ref, nowIso(), [linkInviteEvent('deleted', organizationId, ref)]);
  if (deleted) deps.eventsRecorded();
  return deleted;
}

async function join(deps: IdentityDeps, user: UserRecord | null, organizationId: string, role: RoleOrGuest): Promise<boolean> {
  if (!user) throw notFound('User');
  const added = await deps.members.insert(newMembership({ organizationId, user, role, sso: false, at: nowIso() }), [identityEvents.memberAdded(organizationId, user._id, role)]);
  if (added) deps.eventsRecorded();
  return added;
}

/**
 * Joins the organization with an invite link, with the invite's role. Anyone holding the invite id
 * may; refused when the invite is unknown or deleted (404) or the organization has invite links
 * disabled (403). Idempotent: a member stays as they are (false). Event: member.added.
 */
export async function joinWithLinkInvite(deps: IdentityDeps, caller: Caller, organizationId: string, inviteId: string): Promise<boolean> {
  const [org, invite, member, user] = await Promise.all([
    deps.organizations.findById(organizationId),
    deps.linkInvites.find(organizationId, linkInviteRef(inviteId)),
    deps.members.find(organizationId, caller.userId),
    deps.users.findById(caller.userId),
  ]);
  assertCanJoinWithLinkInvite(invite, org);
  if (member) return false;
  return join(deps, user, organizationId, invite.role);
}

/**
 * Joins the organization when the caller's e-mail address is in one of its e-mail domains, with the
 * organization's default role. Users are created by the instance administrator, so their addresses
 * count as verified. Idempotent: a member stays as they are (false). Event: member.added.
 */
export async function joinByEmailDomain(deps: IdentityDeps, caller: Caller, organizationId: string): Promise<boolean> {
  const [org, member, user] = await Promise.all([
    deps.organizations.findById(organizationId),
    deps.members.find(organizationId, caller.userId),
    deps.users.findById(caller.userId),
  ]);
  if (org && member) return false;
  assertCanJoinByEmailDomain(org, user?.email);
  return join(deps, user, organizationId, org.defaultRole);
}
