import type { Urls } from '@bindery/gateway/identity-routes';
import type { JsonSchema } from '@bindery/gateway/http';
import { specsV1 as pb } from '@bindery/shared/contracts';

const enc = encodeURIComponent;

export const specLocation = (urls: Urls, organizationId: string, slug: string) => `${urls.publicUrl}/v1/orgs/${enc(organizationId)}/openapi/${enc(slug)}`;

/**
 * An OpenAPISpec valid against both releases: 0.130.0 requires `permissions.delete` (listed as
 * required, never defined: whether the caller may delete the spec); 0.202.0 requires
 * `lastProcessedErrorCount` and describes the failed processing in `lastProcessedErrors`.
 */
export function specJson(s: pb.OpenApiSpec, urls: Urls) {
  const p = s.permissions ?? { view: false, edit: false, delete: false };
  return {
    object: 'openapi-spec',
    id: s.id,
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
    slug: s.slug,
    ...(s.sourceUrl !== undefined ? { sourceURL: s.sourceUrl } : {}),
    processingState: s.processingState,
    visibility: s.visibility,
    ...(s.lastVersionId !== undefined ? { lastVersion: s.lastVersionId } : {}),
    ...(s.lastProcessedAt !== undefined ? { lastProcessedAt: s.lastProcessedAt } : {}),
    ...(s.lastProcessErrorCode !== undefined ? { lastProcessErrorCode: s.lastProcessErrorCode } : {}),
    lastProcessedErrors: s.lastProcessedErrors.map((e) => ({ message: e.message, ...(e.code ? { code: e.code } : {}) })),
    lastProcessedErrorCount: s.lastProcessedErrorCount,
    permissions: { view: p.view, edit: p.edit, delete: p.delete },
    urls: { location: specLocation(urls, s.organizationId, s.slug), app: `${urls.appUrl}/o/${enc(s.organizationId)}/openapi/${enc(s.slug)}` },
  };
}

/** An OpenAPISpecVersion: `url` is where its document comes from (the source URL), or its content in this API for a spec sent as text. */
export function versionJson(v: pb.OpenApiSpecVersion, organizationId: string, slug: string, urls: Urls) {
  const location = `${specLocation(urls, organizationId, slug)}/versions/${enc(v.id)}`;
  return { object: 'openapi-spec-version', id: v.id, createdAt: v.createdAt, url: v.sourceUrl ?? `${location}/content`, urls: { location } };
}

/**
 * An OpenAPISpecContent valid against both releases: `url` (0.130.0) and `urls.source` (0.202.0) are
 * the version's URL; `urls.public` is the source URL of a public spec sent by URL, otherwise null
 * (Bindery has no unauthenticated proxy of stored specs). `filesystem` is the official object: the
 * version's files keyed by file name, each `{dir, isEntrypoint, references, filename, specification}`,
 * the entry first (docs/specs.md).
 */
export function contentJson(c: pb.OpenApiSpecContent, organizationId: string, slug: string, urls: Urls) {
  const version = versionJson(c.version!, organizationId, slug, urls);
  const publicUrl = c.visibility === 'public' && c.version?.sourceUrl ? c.version.sourceUrl : null;
  return { filesystem: filesystemObject(c.filesystem), url: version.url, urls: { source: version.url, public: publicUrl } };
}

/** The files as the object the official schema declares, keyed by file name, the entry first (a map keeps no order on the wire). */
export function filesystemObject(files: Record<string, pb.OpenApiSpecFile>) {
  const entries = Object.entries(files).sort(([, a], [, b]) => Number(b.isEntrypoint) - Number(a.isEntrypoint));
  return Object.fromEntries(
    entries.map(([name, f]) => [name, { dir: f.dir, isEntrypoint: f.isEntrypoint, references: f.references, filename: f.filename, specification: f.specification ?? {} }]),
  );
}

/** The reference's TranslationSettings (no official release has this shape: see docs/specs.md). */
export const TRANSLATION_SETTINGS_SCHEMA: JsonSchema = {
  type: 'object',
  required: ['object', 'id', 'title', 'languages', 'createdAt', 'updatedAt', 'permissions', 'urls'],
  additionalProperties: false,
  properties: {
    object: { type: 'string', enum: ['translation-settings'] },
    id: { type: 'string' },
    title: { type: 'string', minLength: 1, maxLength: 100 },
    languages: { type: 'array', items: { type: 'string', description: 'a BCP 47 language tag, in canonical form' } },
    createdAt: { type: 'string', format: 'date-time' },
    updatedAt: { type: 'string', format: 'date-time' },
    permissions: {
      type: 'object',
      required: ['view', 'edit'],
      additionalProperties: false,
      properties: { view: { type: 'boolean' }, edit: { type: 'boolean' } },
    },
    urls: { type: 'object', required: ['location'], additionalProperties: false, properties: { location: { type: 'string', format: 'uri' } } },
  },
};

export function translationSettingsJson(t: pb.TranslationSettings, urls: Urls) {
  const p = t.permissions ?? { view: false, edit: false };
  return {
    object: 'translation-settings',
    id: t.id,
    title: t.title,
    languages: t.languages,
    createdAt: t.createdAt,
    updatedAt: t.updatedAt,
    permissions: { view: p.view, edit: p.edit },
    urls: { location: `${urls.publicUrl}/v1/orgs/${enc(t.organizationId)}/translations/${enc(t.id)}` },
  };
}
