import { assertCanChangeRole, assertCanRemoveMember, assertCanViewMember } from './member-policy';
import { Standing } from './organization-policy';
import { RoleOrGuest } from './roles';

const as = (role: RoleOrGuest): Standing => ({ role, ownsTeam: false });
const ok = (f: () => void) => {
  try {
    f();
    return 'ok';
  } catch (e) {
    return (e as { kind: string }).kind;
  }
};

describe('member policy', () => {
  // caller role, caller is target?, current, next → outcome
  it.each([
    ['admin', false, 'read', 'admin', 'ok'],
    ['admin', false, 'admin', 'read', 'ok'],
    ['admin', true, 'admin', 'edit', 'ok'],
    ['create', false, 'read', 'edit', 'forbidden'],
    ['create', true, 'create', 'admin', 'forbidden'],
    ['read', true, 'read', 'read', 'forbidden'],
    [null, false, 'read', null, 'forbidden'],
  ] as Array<[RoleOrGuest, boolean, RoleOrGuest, RoleOrGuest, string]>)('%s changing %s (self=%s) %s → %s', (caller, self, current, next, outcome) => {
    expect(ok(() => assertCanChangeRole(as(caller), 'me', self ? 'me' : 'them', current, next))).toBe(outcome);
  });

  it.each([
    ['admin', false, 'ok'],
    ['edit', false, 'forbidden'],
    ['edit', true, 'ok'],
    [null, true, 'ok'],
  ] as Array<[RoleOrGuest, boolean, string]>)('%s removing (self=%s)', (caller, self, outcome) => {
    expect(ok(() => assertCanRemoveMember(as(caller), 'me', self ? 'me' : 'them'))).toBe(outcome);
  });

  it.each([
    ['read', false, 'ok'],
    [null, false, 'forbidden'],
    [null, true, 'ok'],
  ] as Array<[RoleOrGuest, boolean, string]>)('%s viewing a member (self=%s)', (caller, self, outcome) => {
    expect(ok(() => assertCanViewMember(as(caller), 'me', self ? 'me' : 'them'))).toBe(outcome);
  });
});
