import { customizationsOf } from './grpc-customization';

describe('the customization of a published read', () => {
  test("the site's settings, each overriding site space's, and whether the site ever set any", () => {
    expect(customizationsOf({ customization: undefined, siteSpaceCustomizations: [] })).toBeUndefined();
    const never = customizationsOf({ customization: { settings: { trademark: { enabled: true } }, updatedAt: undefined }, siteSpaceCustomizations: [] });
    expect(never).toEqual({ site: { trademark: { enabled: true } }, siteSpaces: {}, custom: false });
    const set = customizationsOf({
      customization: { settings: { title: 'Site' }, updatedAt: '2026-01-01T00:00:00.000Z' },
      siteSpaceCustomizations: [{ siteSpaceId: 'ss-de', settings: { title: 'Deutsch' } }],
    });
    expect(set).toEqual({ site: { title: 'Site' }, siteSpaces: { 'ss-de': { title: 'Deutsch' } }, custom: true });
  });
});
