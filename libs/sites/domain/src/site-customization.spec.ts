import { completeCustomization, defaultCustomization, effectiveCustomization, patchOverrides } from './site-customization';

describe('site customization', () => {
  test('what a PUT leaves out takes its default; what it sets is kept', () => {
    const c = completeCustomization({ trademark: { enabled: false }, styling: { corners: 'straight' } });
    expect(c.trademark).toEqual({ enabled: false });
    expect(c.styling).toMatchObject({ corners: 'straight', theme: 'clean', font: 'Inter' });
    expect(c.pagination).toEqual({ enabled: true });
    expect(Object.keys(c).sort()).toEqual(Object.keys(defaultCustomization()).sort());
  });

  test('overrides replace field by field in settings objects, and whole values elsewhere', () => {
    const site = completeCustomization({
      favicon: { icon: { light: 'https://a/l.png', dark: 'https://a/d.png' } },
      styling: { primaryColor: { light: '#ff0000', dark: '#00ff00' } },
    });
    const eff = effectiveCustomization(site, { favicon: { emoji: '📘' }, styling: { corners: 'circular' } });
    expect(eff.favicon).toEqual({ emoji: '📘' });
    expect(eff.styling).toMatchObject({ corners: 'circular', primaryColor: { light: '#ff0000', dark: '#00ff00' } });
  });

  test('a PATCH merges into the overrides; null removes one, and an object left empty goes', () => {
    let o = patchOverrides(undefined, { title: 'Deutsch', styling: { corners: 'straight', primaryColor: { light: '#111111', dark: '#222222' } } });
    o = patchOverrides(o, { styling: { corners: null } });
    expect(o).toEqual({ title: 'Deutsch', styling: { primaryColor: { light: '#111111', dark: '#222222' } } });
    o = patchOverrides(o, { styling: { primaryColor: null }, title: null });
    expect(o).toEqual({});
  });
});
