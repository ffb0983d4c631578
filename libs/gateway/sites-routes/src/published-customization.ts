import type { sitesStructureV1 as structure } from '@bindery/shared/contracts';

type Settings = Record<string, unknown>;
const isObject = (v: unknown): v is Settings => !!v && typeof v === 'object' && !Array.isArray(v);

/**
 * Settings as both official releases of getPublishedContentSite take them. Sites answers 0.202.0's
 * SiteCustomizationSettings, defaults filled (`socialAccounts`, `styling.codeTheme`,
 * `pageActions.items`, …); 0.130.0 requires three fields 0.202.0 dropped, and neither release
 * forbids extra fields, so they are added beside: `pdf` and `git` off (Bindery exports no PDF and
 * links no git provider), and `pageActions.externalAI`/`markdown` read from `pageActions.items`, the
 * one source of truth in 0.202.0.
 */
export function publishedSettingsJson(settings: Settings): Settings {
  const pageActions = isObject(settings.pageActions) ? settings.pageActions : {};
  const items = Array.isArray(pageActions.items) ? (pageActions.items as unknown[]) : [];
  return {
    ...settings,
    pdf: isObject(settings.pdf) ? settings.pdf : { enabled: false },
    git: isObject(settings.git) ? settings.git : { showEditLink: false },
    pageActions: {
      ...pageActions,
      items,
      externalAI: typeof pageActions.externalAI === 'boolean' ? pageActions.externalAI : items.includes('external-ai'),
      markdown: typeof pageActions.markdown === 'boolean' ? pageActions.markdown : items.includes('markdown'),
    },
  };
}

/** PublishedContentSite's `customizations`: the site's settings and each site space's effective settings, by site space id. */
export function publishedCustomizationsJson(p: structure.PublishedSite) {
  const own = p.customization;
  const site = publishedSettingsJson({ ...(own?.settings ?? {}), ...(own?.updatedAt ? { updatedAt: own.updatedAt } : {}) });
  const siteSpaces = Object.fromEntries(p.siteSpaceCustomizations.map((c) => [c.siteSpaceId, publishedSettingsJson(c.settings ?? {})]));
  return { site, siteSpaces };
}
