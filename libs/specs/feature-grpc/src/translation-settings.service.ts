import { invalid, notFound } from '@bindery/platform/errors';
import type { Caller } from '@bindery/platform/grpc';
import { newId } from '@bindery/shared/ids';
import { decodeCursor, resolveLimit, toPage } from '@bindery/shared/pagination';
import { SpecsEvents } from '@bindery/specs/client';
import { assertTranslationAction, canonicalLanguages, TranslationSettingsRecord } from '@bindery/specs/domain';
import { orgTranslationPermissions } from './spec-access';
import { nowOf, SOURCE, SpecsDeps } from './specs-deps';

export const MAX_TITLE = 100;

/** The title as stored: trimmed, 1 to 100 characters (the gateway's schema says so too). */
function titleOf(title: string): string {
  const t = title.trim();
  if (t.length < 1 || t.length > MAX_TITLE) throw invalid(`title must be 1 to ${MAX_TITLE} characters, not all white space.`);
  return t;
}

const changed = (r: TranslationSettingsRecord) => ({ organizationId: r.organizationId, translationSettingsId: r._id, title: r.title, languages: r.languages });

/** The organization's translation settings, oldest first. Needs view (members with a role). */
export async function listTranslationSettings(deps: SpecsDeps, caller: Caller, organizationId: string, page: { page?: string; limit?: number }) {
  const permissions = await orgTranslationPermissions(deps, caller, organizationId);
  const limit = resolveLimit(page.limit);
  const after = decodeCursor(page.page);
  const [rows, count] = await Promise.all([deps.translations.page(organizationId, limit, after), deps.translations.count(organizationId)]);
  return toPage(
    rows,
    limit,
    count,
    (r) => ({ k: r.createdAt, id: r._id }),
    (settings) => ({ settings, permissions }),
  );
}

export async function getTranslationSettings(deps: SpecsDeps, caller: Caller, organizationId: string, id: string) {
  const permissions = await orgTranslationPermissions(deps, caller, organizationId);
  const settings = await deps.translations.get(organizationId, id);
  if (!settings) throw notFound('Translation settings');
  return { settings, permissions };
}

/** Creates translation settings (organization admins). Side effect: specs.translation_settings.created. */
export async function createTranslationSettings(deps: SpecsDeps, caller: Caller, organizationId: string, title: string, languages: string[]) {
  const permissions = await orgTranslationPermissions(deps, caller, organizationId);
  assertTranslationAction(permissions, 'edit');
  const now = nowOf(deps);
  const record: TranslationSettingsRecord = { _id: newId(), organizationId, title: titleOf(title), languages: canonicalLanguages(languages), createdAt: now, updatedAt: now };
  await deps.translations.insert(record, [SpecsEvents.translationSettingsCreated.create(SOURCE, record._id, changed(record), organizationId)]);
  return { settings: record, permissions };
}

/** Renames them, and replaces their languages when given (organization admins). Side effect: specs.translation_settings.updated. */
export async function updateTranslationSettings(deps: SpecsDeps, caller: Caller, organizationId: string, id: string, title: string, languages?: string[]) {
  const { settings, permissions } = await getTranslationSettings(deps, caller, organizationId, id);
  assertTranslationAction(permissions, 'edit');
  const next = { title: titleOf(title), languages: languages ? canonicalLanguages(languages) : settings.languages, updatedAt: nowOf(deps) };
  const event = SpecsEvents.translationSettingsUpdated.create(SOURCE, id, changed({ ...settings, ...next }), organizationId);
  const updated = await deps.translations.rename(organizationId, id, next, [event]);
  if (!updated) throw notFound('Translation settings');
  return { settings: updated, permissions };
}

/** Deletes them (organization admins); false when there were none (the official 204). Side effect: specs.translation_settings.deleted. */
export async function deleteTranslationSettings(deps: SpecsDeps, caller: Caller, organizationId: string, id: string): Promise<boolean> {
  const permissions = await orgTranslationPermissions(deps, caller, organizationId);
  const settings = await deps.translations.get(organizationId, id);
  if (!settings) return false;
  assertTranslationAction(permissions, 'edit');
  const event = SpecsEvents.translationSettingsDeleted.create(SOURCE, id, { organizationId, translationSettingsId: id }, organizationId);
  return deps.translations.remove(organizationId, id, nowOf(deps), [event]);
}
