import { IMPORT_BUDGET_MS } from '@bindery/content/client';
import { conflict, invalid, notFound, unavailable } from '@bindery/platform/errors';
import type { Caller } from '@bindery/platform/grpc';
import { FINISHED, RunFilter, runMessage, RunRecord, RunStatus, RUN_STATUSES } from '@bindery/platform/runs';
import type { contentRevisionsV1 as pb, Run } from '@bindery/shared/contracts';
import type { ContentDeps } from '../content-deps';
import { OrgView } from '../org-view';
import { assertRole } from '@bindery/content/domain';
import { editableSpace } from '../revisions/apply-changes.service';
import { visibleSpace } from '../space-visibility';
import { ImportInput, ImportResult, startUrlOf, WEBSITE_IMPORT_RUN } from './import-website.service';
import type { WebsiteImports } from './import-ports';

/** Import runs: attempts before a run fails (a site briefly down, content restarting). */
export const IMPORT_ATTEMPTS = 3;

/** How often a call waiting for its run looks at it. */
const WAIT_POLL_MS = 200;

function importsOf(deps: ContentDeps): WebsiteImports {
  if (!deps.imports) throw new Error('website imports are not configured');
  return deps.imports;
}

/**
 * Enqueues a website import run after the checks that need no crawl: a valid http(s) URL, the right
 * to edit the space (and, for a live edit, an unlocked space). The enqueue is the request's one write.
 */
export async function startImport(deps: ContentDeps, caller: Caller, req: pb.ImportWebsiteRequest): Promise<RunRecord> {
  const imports = importsOf(deps);
  startUrlOf(req.url);
  const { space } = await editableSpace(deps, caller, req.spaceId, req.updateCurrent);
  if (req.organizationId && space.organizationId !== req.organizationId) throw notFound('Space');
  const input: ImportInput = {
    spaceId: space._id,
    ...(req.changeRequestId ? { changeRequestId: req.changeRequestId } : {}),
    url: req.url,
    baseRevisionId: req.baseRevisionId,
    updateCurrent: req.updateCurrent,
    userId: caller.userId,
    isInstanceAdmin: caller.isInstanceAdmin,
  };
  const { run } = await imports.runs.enqueue({
    kind: WEBSITE_IMPORT_RUN,
    input: { ...input },
    organizationId: space.organizationId,
    createdBy: caller.userId,
    maxAttempts: IMPORT_ATTEMPTS,
    ...(req.idempotencyKey ? { idempotencyKey: `${space._id}:${req.idempotencyKey}` } : {}),
  });
  return run;
}

/**
 * The import as one call (importContent, importContentInChangeRequest): starts the run and waits for
 * it within the call's deadline. Completed: the revision and counts; failed: a 400 with its reason.
 */
export async function importWebsiteAndWait(deps: ContentDeps, caller: Caller, req: pb.ImportWebsiteRequest): Promise<pb.ImportWebsiteReply> {
  const imports = importsOf(deps);
  let run: RunRecord | null = await startImport(deps, caller, req);
  const giveUpAt = Date.now() + IMPORT_BUDGET_MS;
  while (run && !FINISHED.includes(run.status)) {
    if (Date.now() > giveUpAt) throw unavailable(`The import is still running after ${IMPORT_BUDGET_MS / 60_000} minutes; follow it as import run ${run._id}.`);
    await new Promise((resolve) => setTimeout(resolve, WAIT_POLL_MS));
    run = await imports.runs.get(run._id);
  }
  if (!run) throw notFound('Import run');
  if (run.status === 'failed') throw invalid(run.reason ?? 'The import failed.');
  if (run.status === 'cancelled') throw conflict('The import was cancelled.');
  const r = run.result as unknown as ImportResult;
  return { revisionId: r.revision, parentRevisionId: r.parentRevision, importedResources: r.importedResources, totalResources: r.totalResources, importId: run._id };
}

/** A run of the organization whose target space the caller can see; otherwise (or unknown) not_found. */
async function visibleRun(deps: ContentDeps, caller: Caller, organizationId: string, runId: string): Promise<{ run: RunRecord; spaceId: string }> {
  const run = await importsOf(deps).runs.get(runId);
  if (!run || run.kind !== WEBSITE_IMPORT_RUN || run.organizationId !== organizationId) throw notFound('Import run');
  const spaceId = run.input['spaceId'] as string;
  try {
    await visibleSpace(deps, caller, spaceId);
  } catch {
    throw notFound('Import run');
  }
  return { run, spaceId };
}

export async function getImport(deps: ContentDeps, caller: Caller, req: pb.ImportRunRequest): Promise<Run> {
  return runMessage((await visibleRun(deps, caller, req.organizationId, req.runId)).run);
}

/** Cancels a run (editors of its target space); a finished run answers as it is. */
export async function cancelImport(deps: ContentDeps, caller: Caller, req: pb.ImportRunRequest): Promise<Run> {
  const { run, spaceId } = await visibleRun(deps, caller, req.organizationId, req.runId);
  const { role } = await visibleSpace(deps, caller, spaceId);
  assertRole(role, 'edit', 'space', 'Cancelling an import into');
  return runMessage((await importsOf(deps).runs.cancel(run._id)) ?? run);
}

/**
 * The organization's import runs whose target space the caller can see, newest first: members only
 * (others: not_found); a `space` filter the caller cannot see is not_found too.
 */
export async function listImports(deps: ContentDeps, caller: Caller, req: pb.ListImportsRequest): Promise<pb.ListImportsReply> {
  const view = await OrgView.load(deps, req.organizationId, caller.userId);
  if (!view.principal.member && !caller.isInstanceAdmin) throw notFound('Organization');
  const where: RunFilter = { input: {} };
  if (req.status === 'active') where.statuses = ['pending', 'in-progress'];
  else if (req.status) {
    if (!RUN_STATUSES.includes(req.status as RunStatus)) throw invalid(`Unknown status "${req.status}".`);
    where.statuses = [req.status as RunStatus];
  }
  if (req.changeRequestId) where.input!['changeRequestId'] = req.changeRequestId;
  if (req.spaceId) {
    const { space } = await visibleSpace(deps, caller, req.spaceId);
    if (space.organizationId !== req.organizationId) throw notFound('Space');
    where.input!['spaceId'] = space._id;
  } else if (view.principal.member?.role !== 'admin') {
    const seen = view.visibleSpaces();
    const visible = seen ? await deps.spaces.allOf({ visible: seen }) : [];
    where.input!['spaceId'] = { $in: visible.map((s) => s._id) };
  }
  const page = await importsOf(deps).runs.listByOrganization(req.organizationId, WEBSITE_IMPORT_RUN, { page: req.page?.page, limit: req.page?.limit }, where);
  return { items: page.items.map(runMessage), page: { count: page.count, nextPage: page.nextPage } };
}
