import { ID_PARAM, LIST_QUERY, listOf, object, pageOf, RouteSpec, toList, trimmedText } from '@bindery/gateway/http';
import type { Urls } from '@bindery/gateway/identity-routes';
import type { SpecsClients } from '@bindery/specs/client';
import { TRANSLATION_SETTINGS_SCHEMA, translationSettingsJson } from './spec-representations';

const LANGUAGES = { type: 'array', maxItems: 100, items: { type: 'string', minLength: 1, maxLength: 64, description: 'a BCP 47 language tag, e.g. "fr" or "pt-BR"' } };
const SETTINGS_BODY = object({ title: trimmedText(1, 100), languages: LANGUAGES }, ['title']);
const ORG = { organizationId: ID_PARAM };
const SETTINGS = { organizationId: ID_PARAM, translationSettingsId: ID_PARAM };
const LANGUAGE_REFUSAL = { status: 400 as const, description: 'A language is not a BCP 47 tag' };
const SHAPE =
  "The reference's TranslationSettings (title, languages, permissions, urls.location); no official release has this shape (their `Translation` is another resource), so these operations are Bindery's own.";

/** /v1/orgs/{orgId}/translations…: the organization's translation settings (members read, admins write). */
export function translationRoutes(clients: SpecsClients, urls: Urls): RouteSpec[] {
  const { translations } = clients;
  const ref = (params: Record<string, string>) => ({ organizationId: params.organizationId, translationSettingsId: params.translationSettingsId });
  return [
    {
      method: 'get',
      path: '/v1/orgs/:organizationId/translations',
      operationId: 'listTranslationSettings',
      summary: "List the organization's translation settings (members with a role)",
      description: SHAPE,
      tags: ['translations'],
      params: ORG,
      query: LIST_QUERY,
      success: { status: 200, description: 'A page of translation settings', schema: listOf(TRANSLATION_SETTINGS_SCHEMA) },
      async handler({ caller, deadline, params, query }) {
        const r = await translations.listTranslationSettings({ organizationId: params.organizationId, page: pageOf(query) }, { caller, deadline });
        return {
          body: toList(
            r.items.map((t) => translationSettingsJson(t, urls)),
            r.page,
          ),
        };
      },
    },
    {
      method: 'post',
      path: '/v1/orgs/:organizationId/translations',
      operationId: 'createTranslationSettings',
      summary: 'Create translation settings (organization admins)',
      description: SHAPE,
      tags: ['translations'],
      params: ORG,
      body: SETTINGS_BODY,
      success: { status: 201, description: 'The translation settings', schema: TRANSLATION_SETTINGS_SCHEMA },
      refusals: [LANGUAGE_REFUSAL],
      async handler({ caller, deadline, params, body }) {
        const b = body as { title: string; languages?: string[] };
        const created = await translations.createTranslationSettings({ organizationId: params.organizationId, title: b.title, languages: b.languages ?? [] }, { caller, deadline });
        return { status: 201, body: translationSettingsJson(created, urls) };
      },
    },
    {
      method: 'get',
      path: '/v1/orgs/:organizationId/translations/:translationSettingsId',
      operationId: 'getTranslationSettings',
      summary: 'Get translation settings',
      description: SHAPE,
      tags: ['translations'],
      params: SETTINGS,
      success: { status: 200, description: 'The translation settings', schema: TRANSLATION_SETTINGS_SCHEMA },
      async handler({ caller, deadline, params }) {
        return { body: translationSettingsJson(await translations.getTranslationSettings(ref(params), { caller, deadline }), urls) };
      },
    },
    {
      method: 'put',
      path: '/v1/orgs/:organizationId/translations/:translationSettingsId',
      operationId: 'updateTranslationSettings',
      summary: 'Rename translation settings, and replace their languages when given (organization admins)',
      description: SHAPE,
      tags: ['translations'],
      params: SETTINGS,
      body: SETTINGS_BODY,
      success: { status: 200, description: 'The translation settings', schema: TRANSLATION_SETTINGS_SCHEMA },
      refusals: [LANGUAGE_REFUSAL],
      async handler({ caller, deadline, params, body }) {
        const b = body as { title: string; languages?: string[] };
        const updated = await translations.updateTranslationSettings(
          { ...ref(params), title: b.title, languages: b.languages ? { values: b.languages } : undefined },
          { caller, deadline },
        );
        return { body: translationSettingsJson(updated, urls) };
      },
    },
    {
      method: 'delete',
      path: '/v1/orgs/:organizationId/translations/:translationSettingsId',
      operationId: 'deleteTranslationSettings',
      summary: 'Delete translation settings (organization admins)',
      tags: ['translations'],
      params: SETTINGS,
      success: { status: 205, description: 'The translation settings were deleted' },
      alternatives: [{ status: 204, description: 'There were no such translation settings' }],
      async handler({ caller, deadline, params }) {
        return { status: (await translations.deleteTranslationSettings(ref(params), { caller, deadline })).deleted ? 205 : 204 };
      },
    },
  ];
}
