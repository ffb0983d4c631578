/**
 * Colours of a site's brand, made safe for CSS and readable: only `#rrggbb` ever reaches a
 * stylesheet, and a colour text is shown in is moved towards black (light theme) or white (dark
 * theme) until it has WCAG AA contrast (4.5:1) with every background it is shown on.
 */

/** The reader's own backgrounds (reader-css.ts), which a brand colour must stay readable on. */
export const LIGHT_BG = '#ffffff';
export const DARK_BG = '#0d1117';
export const AA_CONTRAST = 4.5;

const HEX6 = /^#[0-9a-f]{6}$/i;
const HEX3 = /^#[0-9a-f]{3}$/i;

/** `#rgb` or `#rrggbb` as lower-case `#rrggbb`; undefined for anything else (nothing else reaches CSS). */
export function cssColor(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  if (HEX6.test(value)) return value.toLowerCase();
  if (HEX3.test(value)) return `#${[...value.slice(1)].map((c) => c + c).join('')}`.toLowerCase();
  return undefined;
}

const channels = (hex: string) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
const toHex = (rgb: number[]) =>
  `#${rgb
    .map((c) =>
      Math.round(Math.min(255, Math.max(0, c)))
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;

/** WCAG 2 relative luminance of a `#rrggbb` colour. */
export function luminance(hex: string): number {
  const [r, g, b] = channels(hex).map((c) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG 2 contrast ratio of two `#rrggbb` colours (1 to 21). */
export function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

/** `a` mixed with `b`: `amount` 0 is `a`, 1 is `b`. */
export function mix(a: string, b: string, amount: number): string {
  const [x, y] = [channels(a), channels(b)];
  return toHex(x.map((c, i) => c + (y[i] - c) * amount));
}

/**
 * `color`, or the nearest colour towards black (on light backgrounds) or white (on dark ones), in
 * steps of 5 %, with at least AA contrast against every background given.
 */
export function readableOn(color: string, backgrounds: string[], dark: boolean): string {
  const towards = dark ? '#ffffff' : '#000000';
  for (let step = 0; step <= 20; step++) {
    const candidate = mix(color, towards, step / 20);
    if (backgrounds.every((bg) => contrast(candidate, bg) >= AA_CONTRAST)) return candidate;
  }
  return towards;
}
