import { DomainError } from '@bindery/platform/errors';
import type { RoleOrGuest } from '@bindery/shared/roles';
import { assertSpecAction, assertTranslationAction, specPermissions, translationPermissions } from './spec-policy';

describe('specs policy', () => {
  // role → [view, edit, delete (manage)] on OpenAPI specs, then [view, edit] on translation settings
  test.each<[RoleOrGuest | undefined, boolean[], boolean[]]>([
    ['admin', [true, true, true], [true, true]],
    ['create', [true, true, true], [true, false]],
    ['review', [true, true, false], [true, false]],
    ['edit', [true, true, false], [true, false]],
    ['comment', [true, false, false], [true, false]],
    ['read', [true, false, false], [true, false]],
    [null, [false, false, false], [false, false]],
    [undefined, [false, false, false], [false, false]],
  ])('%s', (role, spec, translations) => {
    const p = specPermissions(role);
    expect([p.view, p.edit, p.delete]).toEqual(spec);
    expect(p.manage).toBe(p.delete);
    const t = translationPermissions(role);
    expect([t.view, t.edit]).toEqual(translations);
  });

  test('instance admins may do everything', () => {
    expect(specPermissions(null, true)).toEqual({ view: true, edit: true, delete: true, manage: true });
    expect(translationPermissions(undefined, true)).toEqual({ view: true, edit: true });
  });

  test('a refused action is a 403 naming the role it needs', () => {
    const refusal = (f: () => void) => {
      try {
        f();
      } catch (err) {
        return err as DomainError;
      }
      throw new Error('not refused');
    };
    expect(refusal(() => assertSpecAction(specPermissions('edit'), 'manage'))).toMatchObject({ kind: 'forbidden', message: expect.stringContaining('create role') });
    expect(refusal(() => assertSpecAction(specPermissions('read'), 'edit'))).toMatchObject({ kind: 'forbidden', message: expect.stringContaining('edit role') });
    expect(refusal(() => assertTranslationAction(translationPermissions('create'), 'edit'))).toMatchObject({ kind: 'forbidden', message: expect.stringContaining('admin role') });
    expect(() => assertSpecAction(specPermissions('edit'), 'edit')).not.toThrow();
  });
});
