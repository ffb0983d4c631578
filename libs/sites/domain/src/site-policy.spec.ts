import { assertSiteAction, SiteAction, sitePermissions } from './site-policy';
import { updateActionOf } from './site-settings';

const ACTIONS: SiteAction[] = ['view', 'edit', 'publish', 'admin'];

// The organization role of the caller × each site action: true = allowed.
//                                   view   edit   publish admin
const TABLE: Array<[string, boolean[]]> = [
  ['admin', /*               */ [true, true, true, true]],
  ['create', /*              */ [true, true, true, false]],
  ['review', /*              */ [true, true, false, false]],
  ['edit', /*                */ [true, true, false, false]],
  ['comment', /*             */ [true, false, false, false]],
  ['read', /*                */ [true, false, false, false]],
  ['guest', /*               */ [false, false, false, false]],
  ['not a member', /*        */ [false, false, false, false]],
  ['instance admin', /*      */ [true, true, true, true]],
];

const permissionsOf = (who: string) => {
  if (who === 'instance admin') return sitePermissions(undefined, true);
  if (who === 'not a member') return sitePermissions(undefined);
  if (who === 'guest') return sitePermissions(null);
  return sitePermissions(who as 'admin');
};

describe('site policy', () => {
  test.each(TABLE)('%s', (who, expected) => {
    const permissions = permissionsOf(who);
    expect(ACTIONS.map((a) => permissions[a])).toEqual(expected);
    for (const [i, action] of ACTIONS.entries()) {
      if (expected[i]) expect(() => assertSiteAction(permissions, action)).not.toThrow();
      else expect(() => assertSiteAction(permissions, action)).toThrow(expect.objectContaining({ kind: 'forbidden' }));
    }
  });

  test('an update needs admin when it touches the address, access or adaptive content, edit otherwise', () => {
    expect(updateActionOf([])).toBe('edit');
    expect(updateActionOf(['title', 'defaultSiteSpace', 'defaultSiteSection'])).toBe('edit');
    for (const s of ['visibility', 'basename', 'hostname', 'proxy', 'adaptiveContent', 'agentsContext'] as const) {
      expect(updateActionOf(['title', s])).toBe('admin');
    }
  });
});
