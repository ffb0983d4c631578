import type { Page } from '@bindery/shared/pagination';
import { specsV1 as pb } from '@bindery/shared/contracts';
import type { SpecPermissions, SpecRecord, TranslationPermissions, TranslationSettingsRecord, VersionRecord } from '@bindery/specs/domain';

export function specMessage(spec: SpecRecord, permissions: SpecPermissions): pb.OpenApiSpec {
  return {
    id: spec._id,
    organizationId: spec.organizationId,
    slug: spec.slug ?? spec.deletedSlug ?? '',
    sourceUrl: spec.source.kind === 'url' ? spec.source.url : undefined,
    processingState: spec.processingState,
    visibility: spec.visibility,
    lastVersionId: spec.lastVersionId,
    lastProcessedAt: spec.lastProcessedAt,
    lastProcessErrorCode: spec.lastProcessErrorCode || undefined,
    lastProcessedErrors: ((spec.lastProcessErrorCode && spec.lastProcessedErrors) || []).map((e) => ({ message: e.message, code: e.code ?? '' })),
    lastProcessedErrorCount: spec.lastProcessErrorCode ? (spec.lastProcessedErrorCount ?? 0) : 0,
    createdAt: spec.createdAt,
    updatedAt: spec.updatedAt,
    permissions: { view: permissions.view, edit: permissions.edit, delete: permissions.delete },
    runId: spec.runId,
  };
}

export function versionMessage(v: VersionRecord): pb.OpenApiSpecVersion {
  return { id: v._id, specId: v.specId, createdAt: v.createdAt, sourceUrl: v.sourceUrl, format: v.format, hash: v.hash, number: v.number };
}

export function translationSettingsMessage(s: TranslationSettingsRecord, permissions: TranslationPermissions): pb.TranslationSettings {
  return { id: s._id, organizationId: s.organizationId, title: s.title, languages: s.languages, createdAt: s.createdAt, updatedAt: s.updatedAt, permissions };
}

export function pageInfo<T>(page: Page<T>) {
  return { count: page.count, nextPage: page.nextPage };
}
