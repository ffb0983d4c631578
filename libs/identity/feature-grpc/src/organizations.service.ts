import { notFound } from '@bindery/platform/errors';
import { Caller } from '@bindery/platform/grpc';
import {
  assertCanAdminister,
  assertCanView,
  assertMayClaimEmailDomains,
  DefaultContent,
  emailDomainOf,
  MemberRecord,
  newMembership,
  normalizeEmailDomains,
  OrganizationRecord,
  RoleOrGuest,
  Standing,
  validHostname,
  validTitle,
} from '@bindery/identity/domain';
import { newId, nowIso } from '@bindery/shared/ids';
import { decodeCursor, Page, PageRequest, resolveLimit, toPage } from '@bindery/shared/pagination';
import { IdentityDeps } from './identity-deps';
import { identityEvents } from './identity-events';

export interface OrganizationView {
  org: OrganizationRecord;
  standing: Standing | undefined;
}

function standingOf(member: MemberRecord | null | undefined, ownsTeam = false): Standing | undefined {
  return member ? { role: member.role, ownsTeam } : undefined;
}

/** The organization and the caller's standing in it; 404 when the caller cannot see it. */
export async function loadVisible(deps: IdentityDeps, caller: Caller, organizationId: string): Promise<OrganizationView & { standing: Standing }> {
  const [org, standing] = await Promise.all([deps.access.organization(organizationId), deps.access.standing(organizationId, caller.userId)]);
  if (!org) throw notFound('Organization');
  assertCanView(standing);
  return { org, standing };
}

/**
 * Creates an organization with the caller as its admin member, both in one transaction: there is
 * never an organization without its admin. Events: organization.created, member.added.
 */
export async function createOrganization(deps: IdentityDeps, caller: Caller, input: { title: string; emailDomains: string[] }): Promise<OrganizationView> {
  const now = nowIso();
  const id = newId();
  const title = validTitle(input.title);
  const emailDomains = normalizeEmailDomains(input.emailDomains);
  const user = await deps.users.findById(caller.userId);
  if (!user) throw notFound('User');
  assertMayClaimEmailDomains(emailDomains, [], user);
  const org = await deps.transaction(async (session) => {
    const inserted = await deps.organizations.insert(
      {
        _id: id,
        title,
        emailDomains,
        type: 'business',
        defaultRole: 'read',
        sso: false,
        ai: false,
        inviteLinks: true,
        plan: 'free',
        createdAt: now,
        createdBy: caller.userId,
        updatedAt: now,
      },
      [identityEvents.organizationCreated(id, title, caller.userId)],
      session,
    );
    await deps.members.insertNew(
      newMembership({ organizationId: id, user, role: 'admin', sso: false, at: now }),
      [identityEvents.memberAdded(id, caller.userId, 'admin')],
      session,
    );
    return inserted;
  });
  deps.eventsRecorded();
  return { org, standing: { role: 'admin', ownsTeam: false } };
}

/** The caller's organizations, ordered by id, keyset-paginated. */
export async function listOrganizations(deps: IdentityDeps, caller: Caller, page: PageRequest): Promise<Page<OrganizationView>> {
  const limit = resolveLimit(page.limit);
  const cursor = decodeCursor(page.page);
  const [rows, count] = await Promise.all([deps.members.listForUser(caller.userId, cursor, limit), deps.members.countForUser(caller.userId)]);
  const orgs = new Map((await deps.organizations.findManyByIds(rows.map((r) => r.organizationId))).map((o) => [o._id, o]));
  const page_ = toPage(
    rows,
    limit,
    count,
    (r) => ({ id: r._id }),
    (r) => r,
  );
  // The cursor follows memberships, so one whose organization is missing never stalls the walk.
  const owner = await deps.teams.organizationsWhereOwner(
    caller.userId,
    page_.items.map((r) => r.organizationId),
  );
  const items = page_.items.filter((r) => orgs.has(r.organizationId)).map((r) => ({ org: orgs.get(r.organizationId)!, standing: standingOf(r, owner.has(r.organizationId)) }));
  return { ...page_, items };
}

export interface OrganizationPatch {
  title?: string;
  emailDomains?: string[];
  hostname?: string;
  defaultRole?: { value: RoleOrGuest };
  defaultContent?: { value: DefaultContent | null };
  logo?: { value: string | null };
  sso?: boolean;
  ai?: boolean;
  inviteLinks?: boolean;
}

/**
 * 403 unless the caller may claim every domain `emailDomains` adds to the organization (see
 * assertMayClaimEmailDomains). What the organization has now is read from the database, not from
 * the access cache: a domain another replica just dropped must be claimed again.
 */
async function assertClaimable(deps: IdentityDeps, caller: Caller, organizationId: string, emailDomains: string[]): Promise<void> {
  const [user, current] = await Promise.all([deps.users.findById(caller.userId), deps.organizations.findById(organizationId)]);
  if (!user) throw notFound('User');
  if (!current) throw notFound('Organization');
  assertMayClaimEmailDomains(emailDomains, current.emailDomains, user);
}

/** Updates an organization (admins only). Event: organization.updated with the changed field names. */
export async function updateOrganization(deps: IdentityDeps, caller: Caller, organizationId: string, patch: OrganizationPatch): Promise<OrganizationView> {
  const { org, standing } = await loadVisible(deps, caller, organizationId);
  assertCanAdminister(standing);
  const set: Partial<OrganizationRecord> = {};
  const unset: Array<keyof OrganizationRecord> = [];
  if (patch.title !== undefined) set.title = validTitle(patch.title);
  if (patch.emailDomains !== undefined) set.emailDomains = normalizeEmailDomains(patch.emailDomains);
  if (patch.hostname !== undefined) set.hostname = validHostname(patch.hostname);
  if (patch.defaultRole !== undefined) set.defaultRole = patch.defaultRole.value;
  if (patch.defaultContent !== undefined) {
    if (patch.defaultContent.value) set.defaultContent = { type: 'site', site: patch.defaultContent.value.site };
    else unset.push('defaultContent');
  }
  if (patch.logo !== undefined) {
    if (patch.logo.value) set.logo = patch.logo.value;
    else unset.push('logo');
  }
  for (const flag of ['sso', 'ai', 'inviteLinks'] as const) if (patch[flag] !== undefined) set[flag] = patch[flag];
  const changed = [...Object.keys(set), ...unset];
  if (!changed.length) return { org, standing };
  if (set.emailDomains) await assertClaimable(deps, caller, organizationId, set.emailDomains);

  // Hostnames and e-mail domains are unique by index: a taken one is a 409 and changes nothing.
  set.updatedAt = nowIso();
  const updated = await deps.organizations.update(organizationId, set, unset, [identityEvents.organizationUpdated(organizationId, changed, set.hostname ?? org.hostname)]);
  if (!updated) throw notFound('Organization');
  deps.eventsRecorded();
  return { org: updated, standing };
}

/**
 * Organizations that use an e-mail domain, as far as the caller may know them: those the caller
 * belongs to, and all of them when the caller's own address is in that domain (they may join).
 */
export async function organizationsForEmailDomain(deps: IdentityDeps, caller: Caller, domain: string): Promise<OrganizationView[]> {
  const d = domain.trim().toLowerCase();
  const [orgs, user] = await Promise.all([deps.organizations.findByEmailDomain(d), deps.users.findById(caller.userId)]);
  const ownDomain = user ? emailDomainOf(user.email) === d : false;
  const [memberships, owner] = await Promise.all([
    deps.members.memberOf(
      caller.userId,
      orgs.map((o) => o._id),
    ),
    deps.teams.organizationsWhereOwner(
      caller.userId,
      orgs.map((o) => o._id),
    ),
  ]);
  return orgs.filter((o) => ownDomain || memberships.has(o._id)).map((org) => ({ org, standing: standingOf(memberships.get(org._id), owner.has(org._id)) }));
}

/** Records that the caller was active in the organization now. */
export async function pingOrganization(deps: IdentityDeps, caller: Caller, organizationId: string): Promise<string> {
  await loadVisible(deps, caller, organizationId);
  const at = nowIso();
  await deps.members.touch(organizationId, caller.userId, at);
  return at;
}
