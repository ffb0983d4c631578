/** Organization roles, weakest first. `null` is a guest: a member with no role. */
export const ROLES = ['read', 'comment', 'edit', 'review', 'create', 'admin'] as const;
export type Role = (typeof ROLES)[number];
export type RoleOrGuest = Role | null;

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

/** Rank of a role: guest 0, read 1 … admin 6. */
export function roleRank(role: RoleOrGuest): number {
  return role === null ? 0 : ROLES.indexOf(role) + 1;
}

export function hasAtLeast(role: RoleOrGuest, minimum: Role): boolean {
  return roleRank(role) >= roleRank(minimum);
}
