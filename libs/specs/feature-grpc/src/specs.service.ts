import { conflict, notFound } from '@bindery/platform/errors';
import type { Caller } from '@bindery/platform/grpc';
import { ClientSession, isDuplicateKey } from '@bindery/platform/mongo';
import { newId } from '@bindery/shared/ids';
import { decodeCursor, resolveLimit, toPage } from '@bindery/shared/pagination';
import { SpecsEvents } from '@bindery/specs/client';
import { assertSlug, assertSpecAction, SpecPermissions, SpecRecord, SpecSource, SpecVisibility, sourceOf, visibilityOf } from '@bindery/specs/domain';
import { orgSpecPermissions } from './spec-access';
import { nowOf, SOURCE, SpecsDeps } from './specs-deps';
import { PROCESS_SPEC_RUN, ProcessSpecInput } from './process-spec.run';

export interface SpecView {
  spec: SpecRecord;
  permissions: SpecPermissions;
}

/** A spec the caller can see, with their permissions; 404 when it is not there for them. */
export async function visibleSpec(deps: SpecsDeps, caller: Caller, organizationId: string, slug: string): Promise<SpecView> {
  const permissions = await orgSpecPermissions(deps, caller, organizationId);
  const spec = await deps.specs.bySlug(organizationId, slug);
  if (!spec) throw notFound('OpenAPI spec');
  return { spec, permissions };
}

/** The organization's specs, oldest first (keyset on createdAt, id). Needs view. */
export async function listSpecs(deps: SpecsDeps, caller: Caller, organizationId: string, page: { page?: string; limit?: number }) {
  const permissions = await orgSpecPermissions(deps, caller, organizationId, 'Organization');
  const limit = resolveLimit(page.limit);
  const after = decodeCursor(page.page);
  const [rows, count] = await Promise.all([deps.specs.page(organizationId, limit, after), deps.specs.count(organizationId)]);
  return toPage(
    rows,
    limit,
    count,
    (s) => ({ k: s.createdAt, id: s._id }),
    (spec) => ({ spec, permissions }),
  );
}

/** The run that processes the spec's current source, enqueued in the transaction that set it. */
async function enqueueProcessing(deps: SpecsDeps, caller: Caller, spec: Pick<SpecRecord, '_id' | 'organizationId' | 'sourceRevision'>, session: ClientSession) {
  const input: ProcessSpecInput = { organizationId: spec.organizationId, specId: spec._id, revision: spec.sourceRevision };
  const { run } = await deps.runs.enqueue(
    {
      kind: PROCESS_SPEC_RUN,
      input: { ...input },
      organizationId: spec.organizationId,
      createdBy: caller.userId,
      idempotencyKey: `${spec._id}:${spec.sourceRevision}`,
      maxAttempts: 3,
    },
    session,
  );
  return run._id;
}

const taken = (slug: string) => conflict(`An OpenAPI spec with the slug "${slug}" already exists in this organization.`);

/**
 * Creates a spec (needs manage: the create role) and enqueues its processing, in one transaction.
 * The slug's uniqueness in the organization is the unique index's: a taken slug is a 409.
 * Side effects: specs.spec.created; a run of PROCESS_SPEC_RUN.
 */
export async function createSpec(deps: SpecsDeps, caller: Caller, organizationId: string, slug: string, given: { text?: string; url?: string }): Promise<SpecView> {
  const permissions = await orgSpecPermissions(deps, caller, organizationId);
  assertSpecAction(permissions, 'manage');
  assertSlug(slug);
  const source = sourceOf(given, deps.processing.maxBytes);
  try {
    return { spec: await insertSpec(deps, caller, organizationId, slug, source), permissions };
  } catch (err) {
    if (isDuplicateKey(err)) throw taken(slug);
    throw err;
  }
}

async function insertSpec(deps: SpecsDeps, caller: Caller, organizationId: string, slug: string, source: SpecSource): Promise<SpecRecord> {
  const now = nowOf(deps);
  const id = newId();
  return deps.transaction(async (session) => {
    const runId = await enqueueProcessing(deps, caller, { _id: id, organizationId, sourceRevision: 1 }, session);
    const record: SpecRecord = {
      _id: id,
      organizationId,
      slug,
      source,
      sourceRevision: 1,
      visibility: 'private',
      processingState: 'pending',
      runId,
      versionCount: 0,
      createdAt: now,
      updatedAt: now,
    };
    await deps.specs.insert(record, [SpecsEvents.specCreated.create(SOURCE, id, { organizationId, specId: id, slug }, organizationId)], session);
    return viewOf(record);
  });
}

/** The record as reads return it (without its source's text). */
function viewOf(record: SpecRecord): SpecRecord {
  if (record.source.kind !== 'text') return record;
  return { ...record, source: { kind: 'text' } as SpecSource };
}

/**
 * Creates the spec with this slug (needs manage) or gives the existing one a new source (needs edit),
 * and enqueues its processing. Two concurrent PUTs of a new slug create it once: the loser of the
 * unique index updates what the winner created. Side effects: specs.spec.created or specs.spec.updated;
 * a run of PROCESS_SPEC_RUN (the previous source's run, if still going, then records nothing).
 */
export async function putSpec(
  deps: SpecsDeps,
  caller: Caller,
  organizationId: string,
  slug: string,
  given: { text?: string; url?: string },
): Promise<SpecView & { created: boolean }> {
  const permissions = await orgSpecPermissions(deps, caller, organizationId);
  assertSlug(slug);
  const source = sourceOf(given, deps.processing.maxBytes);
  for (let attempt = 0; ; attempt++) {
    const updated = await updateSource(deps, caller, organizationId, slug, source, permissions);
    if (updated) return { spec: updated, permissions, created: false };
    assertSpecAction(permissions, 'manage');
    try {
      return { spec: await insertSpec(deps, caller, organizationId, slug, source), permissions, created: true };
    } catch (err) {
      // Another request created it in between: give that spec this source instead.
      if (!isDuplicateKey(err) || attempt >= 2) throw err;
    }
  }
}

async function updateSource(deps: SpecsDeps, caller: Caller, organizationId: string, slug: string, source: SpecSource, permissions: SpecPermissions): Promise<SpecRecord | null> {
  return deps.transaction(async (session) => {
    const now = nowOf(deps);
    const existing = await deps.specs.bySlug(organizationId, slug, session);
    if (!existing) return null;
    assertSpecAction(permissions, 'edit');
    const event = SpecsEvents.specUpdated.create(SOURCE, existing._id, { organizationId, specId: existing._id, slug, changes: ['source'] }, organizationId);
    const bumped = await deps.specs.replaceSource(organizationId, slug, source, now, [event], session);
    if (!bumped) return null;
    const runId = await enqueueProcessing(deps, caller, bumped, session);
    await deps.specs.setRun(organizationId, bumped._id, bumped.sourceRevision, runId, session);
    return viewOf({ ...bumped, runId });
  });
}

/** Changes a spec's visibility (needs manage). Side effect: specs.spec.updated when it changed. */
export async function updateSpecVisibility(deps: SpecsDeps, caller: Caller, organizationId: string, slug: string, visibility: string): Promise<SpecView> {
  const { spec, permissions } = await visibleSpec(deps, caller, organizationId, slug);
  assertSpecAction(permissions, 'manage');
  const wanted: SpecVisibility = visibilityOf(visibility);
  if (spec.visibility === wanted) return { spec, permissions };
  const event = SpecsEvents.specUpdated.create(SOURCE, spec._id, { organizationId, specId: spec._id, slug, changes: ['visibility'] }, organizationId);
  const updated = await deps.specs.setVisibility(organizationId, slug, wanted, nowOf(deps), [event]);
  if (!updated) throw notFound('OpenAPI spec');
  return { spec: viewOf(updated), permissions };
}

/**
 * Deletes a spec with its versions and their contents (needs manage), in one transaction; the run
 * processing it, if any, is cancelled. False when there was no such spec (the official 204).
 * Side effect: specs.spec.deleted.
 */
export async function deleteSpec(deps: SpecsDeps, caller: Caller, organizationId: string, slug: string): Promise<boolean> {
  const permissions = await orgSpecPermissions(deps, caller, organizationId);
  const existing = await deps.specs.bySlug(organizationId, slug);
  if (!existing) return false;
  assertSpecAction(permissions, 'manage');
  const removed = await deps.transaction(async (session) => {
    const event = SpecsEvents.specDeleted.create(SOURCE, existing._id, { organizationId, specId: existing._id, slug }, organizationId);
    const gone = await deps.specs.remove(organizationId, slug, nowOf(deps), [event], session);
    if (!gone) return null;
    await deps.versions.removeAll(gone._id, session);
    return gone;
  });
  if (!removed) return false;
  await deps.runs.cancel(removed.runId).catch(() => undefined);
  return true;
}
