/**
 * Customization bodies for the site customization tests: a complete 0.202.0
 * SiteCustomizationSettingsInput (a PUT replaces the whole settings), with what a test changes.
 */
export function customizationBody(changes: Record<string, unknown> = {}): Record<string, unknown> {
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
    ...changes,
  };
}
