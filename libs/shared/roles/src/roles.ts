/**
 * The role ladder of organizations and content, weakest first. `null` is a guest in an organization
 * and "no access by default" as a content level. Every service ranks roles through this file.
 */
export const ROLES = ['read', 'comment', 'edit', 'review', 'create', 'admin'] as const;
export type Role = (typeof ROLES)[number];
export type RoleOrGuest = Role | null;

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

/** Rank of a role: guest (or none) 0, read 1 … admin 6. */
export function roleRank(role: RoleOrGuest | undefined): number {
  return role ? ROLES.indexOf(role) + 1 : 0;
}

export function hasAtLeast(role: RoleOrGuest | undefined, minimum: Role): boolean {
  return roleRank(role) >= roleRank(minimum);
}

/** The stronger of two roles (null when neither is one). */
export function strongerRole(a: RoleOrGuest | undefined, b: RoleOrGuest | undefined): RoleOrGuest {
  return roleRank(a) >= roleRank(b) ? (a ?? null) : (b ?? null);
}
