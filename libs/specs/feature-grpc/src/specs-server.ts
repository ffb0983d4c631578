import { connectIdentity, identityAddressSetting } from '@bindery/identity/client';
import { createOrgAccessProjection, IdentitySource, identityAccessSource, orgAccessIndexes } from '@bindery/identity/projection';
import { grpcService } from '@bindery/platform/grpc';
import { Db, transactionsRelayingEvents } from '@bindery/platform/mongo';
import { outboundPolicyFromEnv, SafeFetch, safeFetch } from '@bindery/platform/outbound-http';
import { defineService } from '@bindery/platform/service-runtime';
import { specsV1 as pb } from '@bindery/shared/contracts';
import { OUTBOX_COLLECTIONS, SPECS_INDEXES, SpecsRepository, TranslationSettingsRepository, VersionsRepository } from '@bindery/specs/data-access';
import { pageInfo, specMessage, translationSettingsMessage, versionMessage } from './messages';
import { PROCESS_SPEC_RUN, ProcessSpecInput, runProcessSpec } from './process-spec.run';
import { SpecsDeps } from './specs-deps';
import { createSpec, deleteSpec, listSpecs, putSpec, updateSpecVisibility, visibleSpec } from './specs.service';
import { createTranslationSettings, deleteTranslationSettings, getTranslationSettings, listTranslationSettings, updateTranslationSettings } from './translation-settings.service';
import { listVersions, versionContent, versionRawContent, visibleVersion } from './versions.service';
import { publishedSpec } from './published-specs.service';

const MIB = 1024 * 1024;

export interface SpecsServiceOptions {
  clock?: () => number;
  /** where the access projection confirms what it cannot prove (identity unless a test says otherwise) */
  accessSource?: (db: Db) => IdentitySource;
  /** the outbound guard; a test may wrap it (it never replaces the guard's checks in production) */
  fetch?: SafeFetch;
}

/** The request's source as sent (both or neither is refused by sourceOf). */
const sourceOfMessage = (s: pb.SpecSource | undefined) => ({ ...(s?.text !== undefined ? { text: s.text } : {}), ...(s?.url !== undefined ? { url: s.url } : {}) });

/** The gRPC handlers: proto ⇄ domain, one use case each. */
export function specsGrpc(deps: SpecsDeps) {
  return [
    grpcService(
      pb.OpenApiSpecsServiceService,
      {
        async ping(_req, ctx) {
          return { service: 'specs', callerUserId: ctx.caller.userId };
        },
        async listSpecs(req, { caller }) {
          const page = await listSpecs(deps, caller, req.organizationId, req.page ?? {});
          return { items: page.items.map((v) => specMessage(v.spec, v.permissions)), page: pageInfo(page) };
        },
        async createSpec(req, { caller }) {
          const v = await createSpec(deps, caller, req.organizationId, req.slug, sourceOfMessage(req.source));
          return specMessage(v.spec, v.permissions);
        },
        async getSpec(req, { caller }) {
          const v = await visibleSpec(deps, caller, req.organizationId, req.slug);
          return specMessage(v.spec, v.permissions);
        },
        async putSpec(req, { caller }) {
          const v = await putSpec(deps, caller, req.organizationId, req.slug, sourceOfMessage(req.source));
          return { spec: specMessage(v.spec, v.permissions), created: v.created };
        },
        async updateSpec(req, { caller }) {
          const v = await updateSpecVisibility(deps, caller, req.organizationId, req.slug, req.visibility);
          return specMessage(v.spec, v.permissions);
        },
        async deleteSpec(req, { caller }) {
          return { deleted: await deleteSpec(deps, caller, req.organizationId, req.slug) };
        },
        async listVersions(req, { caller }) {
          const page = await listVersions(deps, caller, req.organizationId, req.slug, req.page ?? {});
          return { items: page.items.map(versionMessage), page: pageInfo(page) };
        },
        async getVersion(req, { caller }) {
          return versionMessage((await visibleVersion(deps, caller, req.organizationId, req.slug, req.versionId)).version);
        },
        async getVersionContent(req, { caller }) {
          const c = await versionContent(deps, caller, req.organizationId, req.slug, req.versionId);
          return { version: versionMessage(c.version), filesystem: c.filesystem, visibility: c.spec.visibility };
        },
        async getVersionRawContent(req, { caller }) {
          return versionRawContent(deps, caller, req.organizationId, req.slug, req.versionId);
        },
        async getPublishedSpec(req, { caller }) {
          const p = await publishedSpec(deps, caller, { slug: req.slug || undefined, sourceUrl: req.sourceUrl || undefined }, req.knownVersionId);
          return { specId: p.spec._id, slug: p.spec.slug ?? '', versionId: p.version._id, versionNumber: p.version.number, files: p.files };
        },
      },
      { siteReadable: ['getPublishedSpec'] },
    ),
    grpcService(pb.TranslationSettingsServiceService, {
      async listTranslationSettings(req, { caller }) {
        const page = await listTranslationSettings(deps, caller, req.organizationId, req.page ?? {});
        return { items: page.items.map((v) => translationSettingsMessage(v.settings, v.permissions)), page: pageInfo(page) };
      },
      async createTranslationSettings(req, { caller }) {
        const v = await createTranslationSettings(deps, caller, req.organizationId, req.title, req.languages);
        return translationSettingsMessage(v.settings, v.permissions);
      },
      async getTranslationSettings(req, { caller }) {
        const v = await getTranslationSettings(deps, caller, req.organizationId, req.translationSettingsId);
        return translationSettingsMessage(v.settings, v.permissions);
      },
      async updateTranslationSettings(req, { caller }) {
        const v = await updateTranslationSettings(deps, caller, req.organizationId, req.translationSettingsId, req.title, req.languages?.values);
        return translationSettingsMessage(v.settings, v.permissions);
      },
      async deleteTranslationSettings(req, { caller }) {
        return { deleted: await deleteTranslationSettings(deps, caller, req.organizationId, req.translationSettingsId) };
      },
    }),
  ];
}

/**
 * Specs: an organization's OpenAPI specs (sources, processing runs, versions and their content) and
 * its translation settings. Organization roles come from its projection of identity's events.
 */
export function specsServiceWith(options: SpecsServiceOptions = {}) {
  let identity: ReturnType<typeof connectIdentity> | undefined;
  const clock = options.clock ?? Date.now;
  return defineService({
    name: 'specs',
    settings: {
      ...identityAddressSetting,
      /** deadline of a call to identity made while serving a call */
      SPECS_CALL_DEADLINE_MS: { kind: 'int', default: 5000, min: 100, max: 60000 },
      /** how long specs remembers an access decision's reads; 0: not at all */
      SPECS_ACCESS_CACHE_MS: { kind: 'int', default: 250, min: 0, max: 1000 },
      /** the bytes every file of one spec may take together (its versions are stored in one MongoDB document each) */
      SPECS_MAX_DOCUMENT_BYTES: { kind: 'int', default: 6 * MIB, min: 1024, max: 7 * MIB },
      /** the files one spec may consist of, the entry included (its external `$ref`s) */
      SPECS_MAX_FILES: { kind: 'int', default: 50, min: 1, max: 500 },
      /** the budget of fetching one file of a spec, redirects and body included */
      SPECS_FETCH_TIMEOUT_MS: { kind: 'int', default: 15_000, min: 100, max: 120_000 },
      /** "true" lets spec URLs reach loopback and private addresses (tests, private networks) */
      BINDERY_OUTBOUND_ALLOW_PRIVATE: { kind: 'string', optional: true },
    },
    indexes: { ...SPECS_INDEXES, ...orgAccessIndexes() },
    outboxCollections: OUTBOX_COLLECTIONS,
    deps: ({ db, eventsRecorded, config, runs }): SpecsDeps => {
      const source = options.accessSource?.(db) ?? identityAccessSource((identity = connectIdentity(config.IDENTITY_GRPC_URL, config.SPECS_CALL_DEADLINE_MS)), 'specs');
      return {
        db,
        specs: new SpecsRepository(db, eventsRecorded),
        versions: new VersionsRepository(db),
        translations: new TranslationSettingsRepository(db, eventsRecorded),
        access: createOrgAccessProjection(db, { source, cacheMs: config.SPECS_ACCESS_CACHE_MS }),
        runs,
        clock,
        transaction: transactionsRelayingEvents(db, eventsRecorded),
        processing: {
          maxBytes: config.SPECS_MAX_DOCUMENT_BYTES,
          maxFiles: config.SPECS_MAX_FILES,
          fetchTimeoutMs: config.SPECS_FETCH_TIMEOUT_MS,
          allowPrivate: outboundPolicyFromEnv({ BINDERY_OUTBOUND_ALLOW_PRIVATE: config.BINDERY_OUTBOUND_ALLOW_PRIVATE }).allowPrivate,
        },
        fetch: options.fetch ?? safeFetch,
      };
    },
    dispose: async () => {
      identity?.close();
    },
    grpc: (deps) => specsGrpc(deps),
    consumers: (deps) => ({
      'specs.identity-access': { from: ['identity'], handlers: deps.access.handlers, liveness: deps.access.liveness, applied: deps.access.forget },
    }),
    runs: (deps) => ({
      handlers: {
        [PROCESS_SPEC_RUN]: async (input, ctx) => ({ ...(await runProcessSpec(deps, input as unknown as ProcessSpecInput, ctx)) }),
      },
    }),
  });
}

export const specsService = specsServiceWith();
