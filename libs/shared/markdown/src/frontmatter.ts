import { parse as parseYaml, stringify as stringifyYaml, YAMLParseError } from 'yaml';
import { MarkdownInputError, type PageFrontmatter, type PageLayout } from './types';

const STRING_FIELDS = ['description', 'icon', 'emoji', 'cover'] as const;
const NUMBER_FIELDS = ['coverY', 'coverHeight'] as const;
const BOOLEAN_FIELDS = ['hidden', 'noIndex', 'noRobotsIndex'] as const;
const VISIBLE_SECTIONS = ['title', 'description', 'tableOfContents', 'outline', 'pagination', 'metadata', 'tags', 'actions'] as const;
/** The official RevisionPageLayoutPreset: `layout: landing` names one instead of listing options. */
const LAYOUT_PRESETS = ['docs', 'editorial', 'landing'] as const;
/** Print order, so the same fields always produce the same YAML. */
const FIELD_ORDER = ['description', 'icon', 'emoji', 'cover', 'coverY', 'coverHeight', 'layout', 'hidden', 'noIndex', 'noRobotsIndex'] as const;

type Mapping = Record<string, unknown>;

/** Reads the YAML front matter into typed page fields; unknown keys are ignored (GitBook and other tools add their own). */
export function readFrontmatter(yaml: string): PageFrontmatter {
  let raw: unknown;
  try {
    raw = parseYaml(yaml);
  } catch (error) {
    const where = error instanceof YAMLParseError && error.linePos ? ` (line ${error.linePos[0].line + 1})` : '';
    throw new MarkdownInputError(`Invalid front matter: the YAML does not parse${where}: ${firstLine(error)}`);
  }
  if (raw === null || raw === undefined) return {};
  if (!isMapping(raw)) throw new MarkdownInputError('Invalid front matter: expected a YAML mapping of page fields (key: value lines)');
  const out: PageFrontmatter = {};
  for (const field of STRING_FIELDS) {
    const value = raw[field];
    if (value === undefined || value === null) continue;
    if (typeof value !== 'string') throw wrongType(field, 'a string', value);
    out[field] = value;
  }
  for (const field of NUMBER_FIELDS) {
    const value = raw[field];
    if (value === undefined || value === null) continue;
    if (typeof value !== 'number' || !Number.isFinite(value)) throw wrongType(field, 'a number', value);
    out[field] = value;
  }
  for (const field of BOOLEAN_FIELDS) {
    const value = raw[field];
    if (value === undefined || value === null) continue;
    if (typeof value !== 'boolean') throw wrongType(field, 'true or false', value);
    out[field] = value;
  }
  if (typeof raw.layout === 'string') out.layoutPreset = oneOf('layout', raw.layout, LAYOUT_PRESETS);
  else if (raw.layout !== undefined && raw.layout !== null) out.layout = readLayout(raw.layout);
  return out;
}

function readLayout(value: unknown): PageLayout {
  if (!isMapping(value)) throw wrongType('layout', 'a preset (docs, editorial, landing) or a mapping (width, cover, title, …)', value);
  const layout: PageLayout = {};
  if (value.width !== undefined) layout.width = oneOf('layout.width', value.width, ['default', 'wide'] as const);
  if (value.cover !== undefined) {
    if (!isMapping(value.cover)) throw wrongType('layout.cover', 'a mapping (visible, size, mask)', value.cover);
    const cover: NonNullable<PageLayout['cover']> = {};
    if (value.cover.visible !== undefined) cover.visible = bool('layout.cover.visible', value.cover.visible);
    if (value.cover.size !== undefined) cover.size = oneOf('layout.cover.size', value.cover.size, ['hero', 'full', 'background'] as const);
    if (value.cover.mask !== undefined) cover.mask = oneOf('layout.cover.mask', value.cover.mask, ['none', 'radial'] as const);
    layout.cover = cover;
  }
  for (const section of VISIBLE_SECTIONS) {
    const entry = value[section];
    if (entry === undefined) continue;
    if (!isMapping(entry)) throw wrongType(`layout.${section}`, 'a mapping with `visible: true|false`', entry);
    layout[section] = entry.visible === undefined ? {} : { visible: bool(`layout.${section}.visible`, entry.visible) };
  }
  return layout;
}

/** Prints the page fields as YAML (without the `---` fences); empty string when there is nothing to print. */
export function writeFrontmatter(frontmatter: PageFrontmatter | undefined): string {
  if (!frontmatter) return '';
  const ordered: Mapping = {};
  for (const field of FIELD_ORDER) if (frontmatter[field] !== undefined) ordered[field] = frontmatter[field];
  return Object.keys(ordered).length ? stringifyYaml(ordered, { lineWidth: 0 }).trimEnd() : '';
}

function bool(field: string, value: unknown): boolean {
  if (typeof value !== 'boolean') throw wrongType(field, 'true or false', value);
  return value;
}

function oneOf<T extends string>(field: string, value: unknown, allowed: readonly T[]): T {
  if (typeof value !== 'string' || !allowed.includes(value as T)) throw wrongType(field, `one of ${allowed.join(', ')}`, value);
  return value as T;
}

function wrongType(field: string, expected: string, value: unknown): MarkdownInputError {
  return new MarkdownInputError(`Invalid front matter: \`${field}\` must be ${expected}, got ${describe(value)}`);
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return 'a list';
  if (isMapping(value)) return 'a mapping';
  return `${typeof value} ${JSON.stringify(value)}`;
}

function isMapping(value: unknown): value is Mapping {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function firstLine(error: unknown): string {
  return String(error instanceof Error ? error.message : error).split('\n')[0];
}
