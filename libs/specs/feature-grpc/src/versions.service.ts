import { notFound } from '@bindery/platform/errors';
import type { Caller } from '@bindery/platform/grpc';
import { decodeCursor, resolveLimit, toPage } from '@bindery/shared/pagination';
import type { specsV1 as pb } from '@bindery/shared/contracts';
import type { VersionRecord } from '@bindery/specs/domain';
import type { FilesystemEntry } from './processing/load-files';
import type { SpecsDeps } from './specs-deps';
import { visibleSpec } from './specs.service';

/** The spec's versions, newest first (keyset on their number). Needs view. */
export async function listVersions(deps: SpecsDeps, caller: Caller, organizationId: string, slug: string, page: { page?: string; limit?: number }) {
  const { spec } = await visibleSpec(deps, caller, organizationId, slug);
  const limit = resolveLimit(page.limit);
  const after = decodeCursor(page.page);
  const [rows, count] = await Promise.all([deps.versions.page(spec._id, limit, after ? Number(after.k) : undefined), deps.versions.count(spec._id)]);
  return toPage(
    rows,
    limit,
    count,
    (v) => ({ k: v.number, id: v._id }),
    (v) => v,
  );
}

/** A version of a visible spec: `versionId`, or the latest when it is empty (404 while there is none). */
export async function visibleVersion(deps: SpecsDeps, caller: Caller, organizationId: string, slug: string, versionId: string) {
  const { spec } = await visibleSpec(deps, caller, organizationId, slug);
  const id = versionId || spec.lastVersionId;
  const version: VersionRecord | null = id ? await deps.versions.get(spec._id, id) : null;
  if (!version) throw notFound(versionId ? 'OpenAPI spec version' : 'A processed version of this OpenAPI spec');
  return { spec, version };
}

/** A version's files keyed by file name (a name given twice keeps the first) and the spec's visibility. */
export async function versionContent(deps: SpecsDeps, caller: Caller, organizationId: string, slug: string, versionId: string) {
  const { spec, version } = await visibleVersion(deps, caller, organizationId, slug, versionId);
  const content = await deps.versions.content(spec._id, version._id);
  if (!content) throw notFound('OpenAPI spec version');
  const files = new Map<string, pb.OpenApiSpecFile>();
  // stored as the JSON text its hash is made of (process-document.ts)
  for (const file of JSON.parse(content.filesystemJson) as FilesystemEntry[]) if (!files.has(file.filename)) files.set(file.filename, file);
  return { spec, version, filesystem: Object.fromEntries(files) };
}

/** A version's entry file as it was received. */
export async function versionRawContent(deps: SpecsDeps, caller: Caller, organizationId: string, slug: string, versionId: string) {
  const { spec, version } = await visibleVersion(deps, caller, organizationId, slug, versionId);
  const raw = await deps.versions.raw(spec._id, version._id);
  if (!raw) throw notFound('OpenAPI spec version');
  return { text: raw.raw, format: raw.format };
}
