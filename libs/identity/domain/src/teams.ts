import { invalid } from '@bindery/platform/errors';
import { hasLengthWithin, TEXT_LIMITS } from '@bindery/shared/text';

/** A member's role in a team: owners manage the team's members. */
export const TEAM_ROLES = ['owner', 'member'] as const;
export type TeamRole = (typeof TEAM_ROLES)[number];

export function isTeamRole(value: unknown): value is TeamRole {
  return typeof value === 'string' && (TEAM_ROLES as readonly string[]).includes(value);
}

export interface TeamRecord {
  _id: string;
  organizationId: string;
  title: string;
  /** the title lower-cased, for the case-insensitive title filter and the listing order */
  titleLower: string;
  createdAt: string;
  createdBy: string;
  updatedAt: string;
  /** soft delete: the document may still hold events the relay has not sent */
  deletedAt?: string;
}

export interface TeamMemberRecord {
  /** `<organizationId>:<teamId>:<userId>`: one membership per user and team */
  _id: string;
  organizationId: string;
  teamId: string;
  userId: string;
  role: TeamRole;
  addedAt: string;
  /** soft delete, as for teams; a later add revives the document */
  removedAt?: string;
}

export function teamMemberId(organizationId: string, teamId: string, userId: string): string {
  return `${organizationId}:${teamId}:${userId}`;
}

export function validTeamTitle(title: string): string {
  const t = title.trim();
  const { min, max } = TEXT_LIMITS.teamTitle;
  if (!hasLengthWithin(t, min, max)) throw invalid(`title must have ${min} to ${max} characters.`);
  return t;
}

export interface TeamMembersChange {
  /** users to add; an existing member keeps their role unless `roles` says otherwise */
  add: string[];
  remove: string[];
  roles: Map<string, TeamRole>;
}

export interface TeamMembersPlan {
  added: Array<{ userId: string; role: TeamRole }>;
  updated: Array<{ userId: string; role: TeamRole; previous: TeamRole }>;
  removed: string[];
}

/**
 * What a bulk update does to the current members (user id → role). A user both added (or given a
 * role) and removed ends removed; giving a role to a non-member adds them with it; nothing is
 * planned for what is already so.
 */
export function planTeamMembersChange(change: TeamMembersChange, current: Map<string, TeamRole>): TeamMembersPlan {
  const removing = new Set(change.remove);
  const plan: TeamMembersPlan = { added: [], updated: [], removed: [] };
  const wanted = new Map<string, TeamRole | undefined>();
  for (const userId of change.add) if (!removing.has(userId)) wanted.set(userId, undefined);
  for (const [userId, role] of change.roles) if (!removing.has(userId)) wanted.set(userId, role);
  for (const [userId, role] of wanted) {
    const previous = current.get(userId);
    if (previous === undefined) plan.added.push({ userId, role: role ?? 'member' });
    else if (role !== undefined && role !== previous) plan.updated.push({ userId, role, previous });
  }
  for (const userId of removing) if (current.has(userId)) plan.removed.push(userId);
  return plan;
}
