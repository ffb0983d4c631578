/**
 * A site's customization: the official SiteCustomizationSettings (branding of the published site),
 * stored as the object the gateway validated, and each site space's overrides of it.
 */
export type CustomizationValue = null | boolean | number | string | CustomizationValue[] | { [key: string]: CustomizationValue };
export type CustomizationObject = { [key: string]: CustomizationValue };

/** The stored settings of a site (`siteSpaceId` absent) or the overrides of one of its site spaces. */
export interface SiteCustomizationRecord {
  /** the site id, or `<site id>:<site space id>` for a site space's overrides */
  _id: string;
  organizationId: string;
  siteId: string;
  siteSpaceId?: string;
  /** the site's settings, or the site space's overrides (never null values: a null removes an override) */
  settings: CustomizationObject;
  updatedAt: string;
}

export const customizationIdOf = (siteId: string, siteSpaceId?: string) => (siteSpaceId ? `${siteId}:${siteSpaceId}` : siteId);

/** The primary colour Bindery's reader uses when a site sets none (its link colour). */
export const DEFAULT_PRIMARY_COLOR = '#0550ae';

/**
 * The settings of a site that never set any, and what fills a field the settings leave out: every
 * field SiteCustomizationSettings requires, with the values that leave the reader as it is.
 */
export function defaultCustomization(): CustomizationObject {
  const themed = (light: string, dark: string) => ({ light, dark });
  return {
    styling: {
      theme: 'clean',
      primaryColor: themed(DEFAULT_PRIMARY_COLOR, '#6cb6ff'),
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

/**
 * The objects whose fields are settings of their own: a site space overrides them field by field,
 * and a value filled in from the defaults goes into them. Everything else (a colour, a logo, the
 * favicon, the header's links) is one value, replaced as a whole — merging two favicons or two
 * content references would make a value of neither shape.
 */
const MERGED = new Set([
  '',
  'styling',
  'styling.sidebar',
  'styling.codeTheme',
  'internationalization',
  'header',
  'footer',
  'themes',
  'feedback',
  'ai',
  'advancedCustomization',
  'externalLinks',
  'pagination',
  'trademark',
  'privacyPolicy',
  'socialPreview',
  'pageActions',
  'insights',
]);

const isObject = (v: unknown): v is CustomizationObject => !!v && typeof v === 'object' && !Array.isArray(v);

/**
 * `base` with `changes` laid over it: in the objects of MERGED field by field, elsewhere each value
 * replaced as a whole. A null in `changes` removes the field (an override reset); an object left
 * empty by that is removed too when `dropEmpty` (overrides keep nothing that overrides nothing).
 */
export function mergeCustomization(base: CustomizationObject, changes: CustomizationObject, dropEmpty = false, at = ''): CustomizationObject {
  const out: CustomizationObject = { ...base };
  for (const [key, value] of Object.entries(changes)) {
    const path = at ? `${at}.${key}` : key;
    if (value === null) delete out[key];
    else if (MERGED.has(path) && isObject(value)) {
      const merged = mergeCustomization(isObject(out[key]) ? (out[key] as CustomizationObject) : {}, value, dropEmpty, path);
      if (dropEmpty && Object.keys(merged).length === 0) delete out[key];
      else out[key] = merged;
    } else out[key] = value;
  }
  return out;
}

/** The settings with every field the official answer requires: the stored settings over the defaults. */
export function completeCustomization(settings: CustomizationObject | undefined): CustomizationObject {
  return mergeCustomization(defaultCustomization(), withoutNulls(settings ?? {}));
}

/** Nulls are no settings: a PUT never stores one (the official input has no nullable field but headingFont). */
function withoutNulls(settings: CustomizationObject): CustomizationObject {
  return Object.fromEntries(Object.entries(settings).filter(([, v]) => v !== null));
}

/** A site space's effective settings: the site's (complete) with the site space's overrides applied. */
export function effectiveCustomization(site: CustomizationObject | undefined, overrides: CustomizationObject | undefined): CustomizationObject {
  return mergeCustomization(completeCustomization(site), overrides ?? {});
}

/** The stored overrides after a PATCH: present fields replace, null removes the override (and empty objects go). */
export function patchOverrides(current: CustomizationObject | undefined, patch: CustomizationObject): CustomizationObject {
  return mergeCustomization(current ?? {}, patch, true);
}
