import { compileValidators, RouteRegistry, validateRequest } from '@bindery/gateway/http';
import { customizationRoutes } from './customization-routes';

const routes = new RouteRegistry().add(...customizationRoutes({} as never)).routes;

function refusalOf(operationId: string) {
  const route = routes.find((r) => r.operationId === operationId);
  if (!route) throw new Error(operationId);
  const v = compileValidators(route);
  return (body: unknown) => {
    try {
      validateRequest(v, {
        params: route.path.includes('siteSpaceId') ? { organizationId: 'o', siteId: 's', siteSpaceId: 'ss' } : { organizationId: 'o', siteId: 's' },
        query: {},
        body,
        hasBody: true,
      });
      return undefined;
    } catch (err) {
      return (err as Error).message;
    }
  };
}

/** A whole PUT body: every section SiteCustomizationSettings requires (the values sites fills in by default). */
function defaultCustomization(): Record<string, unknown> {
  const themed = (light: string, dark: string) => ({ light, dark });
  return {
    styling: {
      theme: 'clean',
      primaryColor: themed('#0550ae', '#6cb6ff'),
      infoColor: themed('#0550ae', '#6cb6ff'),
      successColor: themed('#1a7f37', '#3fb950'),
      warningColor: themed('#9a6700', '#d29922'),
      dangerColor: themed('#cf222e', '#f85149'),
      corners: 'rounded',
      depth: 'subtle',
      links: 'default',
      font: 'Inter',
      monospaceFont: 'IBMPlexMono',
      codeTheme: { default: themed('default-light', 'default-dark'), openapi: themed('default-light', 'default-dark') },
      background: 'plain',
      icons: 'regular',
      sidebar: { background: 'default', list: 'default' },
      search: 'subtle',
    },
    internationalization: { locale: 'en' },
    favicon: {},
    header: { preset: 'default', links: [] },
    footer: { groups: [] },
    themes: { default: 'system', toggeable: true },
    feedback: { enabled: false },
    ai: { mode: 'none' },
    advancedCustomization: { enabled: false },
    trademark: { enabled: true },
    externalLinks: { target: 'self' },
    pagination: { enabled: true },
    pageActions: { items: [] },
    privacyPolicy: {},
    socialPreview: {},
    socialAccounts: [],
    insights: { trackingCookie: true },
  };
}

describe('customization request schemas (the official 0.202.0 bodies, strict)', () => {
  const put = refusalOf('updateSiteCustomizationById');
  const patch = refusalOf('overrideSiteSpaceCustomizationById');
  const full = defaultCustomization();

  test('the defaults are a valid PUT body; a PUT leaving out a required section is refused naming it', () => {
    expect(put(full)).toBeUndefined();
    const { footer: _footer, ...withoutFooter } = full;
    expect(put(withoutFooter)).toMatch(/body\.footer is required/);
  });

  test('a colour that is not #rgb / #rrggbb never passes (no CSS can be smuggled in)', () => {
    const styling = full.styling as Record<string, unknown>;
    const bad = { ...full, styling: { ...styling, primaryColor: { light: 'red;}body{display:none', dark: '#000000' } } };
    expect(put(bad)).toMatch(/body\.styling\.primaryColor\.light/);
    expect(patch({ styling: { primaryColor: { light: '#123', dark: 'url(x)' } } })).toMatch(/body\.styling\.primaryColor\.dark/);
    expect(patch({ styling: { primaryColor: { light: '#123', dark: '#abcdef' } } })).toBeUndefined();
  });

  test('unknown fields are refused at any depth; nulls reset overrides in a PATCH', () => {
    expect(put({ ...full, colour: 'x' })).toMatch(/unknown field "colour"/);
    expect(patch({ header: { logo: { light: 'https://x.example/l.png', dark: 'https://x.example/d.png', extra: 1 } } })).toMatch(/unknown field "extra"/);
    expect(patch({ title: null, styling: { primaryColor: null, corners: null }, favicon: null, header: { logo: null, links: null } })).toBeUndefined();
    expect(patch({ styling: { corners: 'wavy' } })).toMatch(/body\.styling\.corners/);
  });

  test('favicons take one form; header links take content references', () => {
    expect(patch({ favicon: { emoji: '📘' } })).toBeUndefined();
    expect(patch({ favicon: { emoji: '📘', icon: { light: 'https://a.example/i.png', dark: 'https://a.example/i.png' } } })).toMatch(/favicon/);
    expect(patch({ header: { links: [{ title: 'Home', to: { kind: 'url', url: 'https://example.com' }, links: [] }] } })).toBeUndefined();
    expect(patch({ header: { links: [{ title: 'Home', to: { kind: 'rocket' }, links: [] }] } })).toMatch(/header\.links\.0\.to/);
  });
});
