// The role ladder is shared by every service: its one home is libs/shared/roles.
export { ROLES, isRole, roleRank, hasAtLeast } from '@bindery/shared/roles';
export type { Role, RoleOrGuest } from '@bindery/shared/roles';
