import { DomainError } from '@bindery/platform/errors';
import { assertCanAdminister, assertCanView, organizationPermissions, Standing } from './organization-policy';
import { hasAtLeast, RoleOrGuest } from './roles';

const as = (role: RoleOrGuest, ownsTeam = false): Standing => ({ role, ownsTeam });

describe('organization policy', () => {
  // [standing, view, admin, createContent, listMembers, viewBilling]
  const table: Array<[string, Standing | undefined, boolean, boolean, boolean, boolean, boolean]> = [
    ['non-member', undefined, false, false, false, false, false],
    ['guest', as(null), true, false, false, false, false],
    ['read', as('read'), true, false, false, true, false],
    ['comment', as('comment'), true, false, false, true, false],
    ['edit', as('edit'), true, false, false, true, false],
    ['review', as('review'), true, false, false, true, false],
    ['create', as('create'), true, false, true, true, false],
    ['admin', as('admin'), true, true, true, true, true],
  ];

  it.each(table)('%s', (_name, standing, view, admin, createContent, listMembers, viewBilling) => {
    const p = organizationPermissions(standing);
    expect([p.view, p.admin, p.createContent, p.listMembers, p.viewBilling]).toEqual([view, admin, createContent, listMembers, viewBilling]);
    // The checks agree with the permissions object.
    if (view) expect(() => assertCanView(standing)).not.toThrow();
    else expect(() => assertCanView(standing)).toThrow(expect.objectContaining({ kind: 'not_found' }));
    if (admin) expect(() => assertCanAdminister(standing)).not.toThrow();
    else expect(() => assertCanAdminister(standing)).toThrow(DomainError);
  });

  it('reports team ownership', () => {
    expect(organizationPermissions(as('read', true)).ownTeam).toBe(true);
    expect(organizationPermissions(as('admin')).ownTeam).toBe(false);
  });

  it('ranks roles read < comment < edit < review < create < admin, guest lowest', () => {
    expect(hasAtLeast('review', 'edit')).toBe(true);
    expect(hasAtLeast('edit', 'review')).toBe(false);
    expect(hasAtLeast(null, 'read')).toBe(false);
    expect(hasAtLeast('admin', 'create')).toBe(true);
  });

  it('refuses a non-admin member with 403 and a stranger with 404', () => {
    expect(() => assertCanAdminister(as('create'))).toThrow(expect.objectContaining({ kind: 'forbidden' }));
    expect(() => assertCanAdminister(undefined)).toThrow(expect.objectContaining({ kind: 'not_found' }));
  });
});
