import { conflict, forbidden } from '@bindery/platform/errors';
import { Standing } from './organization-policy';
import { hasAtLeast, roleRank, RoleOrGuest } from './roles';

/** Who may see the member list and a member: non-guest members; anyone may see themselves. */
export function canListMembers(standing: Standing): boolean {
  return standing.role !== null;
}

export function assertCanViewMember(standing: Standing, callerId: string, targetUserId: string): void {
  if (callerId !== targetUserId && !canListMembers(standing)) throw forbidden('Guests cannot see other members.');
}

/**
 * A role change: admins only, and nobody raises their own role (an admin can only lower theirs).
 * Keeping at least one admin is checked against the stored state by the use case.
 */
export function assertCanChangeRole(standing: Standing, callerId: string, targetUserId: string, current: RoleOrGuest, next: RoleOrGuest): void {
  if (!hasAtLeast(standing.role, 'admin')) throw forbidden('Only organization admins can change roles.');
  if (callerId === targetUserId && roleRank(next) > roleRank(current)) throw forbidden('You cannot raise your own role.');
}

/** Removing a member: admins remove anyone; a member may leave (remove themselves). */
export function assertCanRemoveMember(standing: Standing, callerId: string, targetUserId: string): void {
  if (callerId !== targetUserId && !hasAtLeast(standing.role, 'admin')) throw forbidden('Only organization admins can remove members.');
}

export function lastAdminError() {
  return conflict('An organization must keep at least one admin: make another member admin first.');
}
