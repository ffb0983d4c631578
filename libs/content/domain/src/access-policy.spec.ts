import type { RoleOrGuest } from '@bindery/shared/roles';
import { assertCanMerge, assertNotLocked, collectionPermissions, effectiveRole, Principal, spacePermissions, Tree, TreeItem } from './access-policy';
import type { GrantRecord } from './records';

const col = (id: string, parent: string | null, defaultLevel: TreeItem['defaultLevel']): TreeItem => ({ id, kind: 'collection', parent, defaultLevel });
const space = (parent: string | null, defaultLevel: TreeItem['defaultLevel'] = 'inherit'): TreeItem => ({ id: 's', kind: 'space', parent, defaultLevel });

// top (inherit) ⊃ restricted (null) ⊃ inner (inherit)
const collections = [col('top', null, 'inherit'), col('restricted', 'top', null), col('inner', 'restricted', 'inherit')];
const tree: Tree = { collection: (id) => collections.find((c) => c.id === id) };
const member = (role: RoleOrGuest, teams: string[] = []): Principal => ({ userId: 'u', member: { role, teams } });
type G = Pick<GrantRecord, 'targetKind' | 'targetId' | 'principalKind' | 'principalId' | 'role'>;
const grant = (targetKind: G['targetKind'], targetId: string, principalKind: G['principalKind'], principalId: string, role: G['role']): G => ({
  targetKind,
  targetId,
  principalKind,
  principalId,
  role,
});

describe('effective role', () => {
  test('a member inherits their organization role through inherit levels', () => {
    expect(effectiveRole(member('edit'), space('top'), tree, [])).toBe('edit');
    expect(effectiveRole(member('read'), space(null), tree, [])).toBe('read');
  });

  test('a null level on the way means no default access; a role level gives that role to every member', () => {
    expect(effectiveRole(member('create'), space('inner'), tree, [])).toBeNull();
    expect(effectiveRole(member('read'), space('inner', 'review'), tree, [])).toBe('review');
    expect(effectiveRole(member('admin'), space('inner'), tree, [])).toBe('admin');
  });

  test('guests and non-members get no default', () => {
    expect(effectiveRole(member(null), space(null), tree, [])).toBeNull();
    expect(effectiveRole(member(null), space(null, 'edit'), tree, [])).toBeNull();
    expect(effectiveRole({ userId: 'u' }, space(null), tree, [grant('space', 's', 'user', 'u', 'admin')])).toBeNull();
  });

  test('grants on the item or a collection above it, to the user or their team, add to the default; the strongest wins', () => {
    expect(effectiveRole(member(null), space('inner'), tree, [grant('collection', 'restricted', 'user', 'u', 'comment')])).toBe('comment');
    expect(effectiveRole(member(null, ['t']), space('inner'), tree, [grant('collection', 'top', 'team', 't', 'review')])).toBe('review');
    expect(effectiveRole(member(null, []), space('inner'), tree, [grant('collection', 'top', 'team', 't', 'review')])).toBeNull();
    expect(effectiveRole(member('edit'), space('top'), tree, [grant('space', 's', 'user', 'u', 'read')])).toBe('edit');
    expect(effectiveRole(member('read'), space('top'), tree, [grant('space', 'other', 'user', 'u', 'admin'), grant('space', 's', 'user', 'someone', 'admin')])).toBe('read');
  });
});

describe('permissions objects', () => {
  test('merging needs the review role (403) and a space that is not locked (412)', () => {
    const statusOf = (f: () => void) => {
      try {
        f();
        return 'allowed';
      } catch (err) {
        return (err as { kind?: string }).kind;
      }
    };
    expect(statusOf(() => assertCanMerge('review', 'live'))).toBe('allowed');
    expect(statusOf(() => assertCanMerge('admin', 'locked'))).toBe('precondition');
    expect(statusOf(() => assertCanMerge('edit', 'locked'))).toBe('forbidden');
    expect(statusOf(() => assertCanMerge(null, 'locked'))).toBe('not_found');
    expect(statusOf(() => assertNotLocked('locked', 'live edit'))).toBe('precondition');
    for (const role of ['read', 'comment', 'edit', 'review', 'create', 'admin', null] as const)
      for (const mode of ['live', 'locked'] as const) expect(spacePermissions(role, mode).merge).toBe(statusOf(() => assertCanMerge(role, mode)) === 'allowed');
  });

  test('a locked space allows no edit, merge or git sync, whatever the role', () => {
    expect(spacePermissions('admin', 'locked')).toMatchObject({ admin: true, edit: false, merge: false, triggerGitSync: false, review: true });
    expect(spacePermissions('edit', 'live')).toMatchObject({ edit: true, merge: false, review: false, comment: true, admin: false });
    expect(spacePermissions(null, 'live')).toEqual(Object.fromEntries(Object.keys(spacePermissions('admin', 'live')).map((k) => [k, false])));
  });

  test('collection create needs the create role', () => {
    expect(collectionPermissions('create')).toEqual({ view: true, admin: false, viewInviteLinks: false, create: true });
    expect(collectionPermissions('review').create).toBe(false);
  });
});
