import { performance } from 'node:perf_hooks';
import type { RunContext } from '@bindery/platform/runs';
import { logger } from '@bindery/platform/telemetry';
import { newId } from '@bindery/shared/ids';
import { SpecsEvents } from '@bindery/specs/client';
import type { SpecRecord, VersionRecord } from '@bindery/specs/domain';
import { DocumentProblem, guardedFetcher, processDocument, ProcessedDocument } from './processing';
import { nowOf, SOURCE, SpecsDeps } from './specs-deps';

/** The run kind that processes a spec's source into a version. */
export const PROCESS_SPEC_RUN = 'specs.process-spec';

/** What one version may take as stored (its files as JSON and the entry as received): a MongoDB document is at most 16 MiB. */
const MAX_STORED_BYTES = 15 * 1024 * 1024;

/** A processing run's input: the spec and the revision of its source the run processes. */
export interface ProcessSpecInput {
  organizationId: string;
  specId: string;
  revision: number;
}

/** What a processing run answers: the version it ended on, or the failure it recorded; `stale` when a newer source came first. */
export type ProcessSpecResult =
  { outcome: 'version'; versionId: string; number: number; newVersion: boolean } | { outcome: 'failed'; errorCode: string; errors: number } | { outcome: 'stale' };

/**
 * The run of one source of a spec: `pending` → `progress` (when a worker starts it) → `complete`,
 * with a version, or with `lastProcessErrorCode` and the problems found (what and where). A fetch or
 * document problem ends the run (trying again cannot help until the source changes); any other
 * failure (the database) is retried by the runs library. Every write is conditional on the source's
 * revision, so a run overtaken by a newer PUT records nothing.
 */
export async function runProcessSpec(
  deps: SpecsDeps,
  input: ProcessSpecInput,
  ctx: Pick<RunContext, 'signal' | 'progress'> & { run?: { createdAt: Date } },
): Promise<ProcessSpecResult> {
  const queuedMs = ctx.run ? Date.now() - new Date(ctx.run.createdAt).getTime() : undefined;
  const { organizationId, specId, revision } = input;
  const spec = await deps.specs.withSource(organizationId, specId);
  if (!spec || spec.sourceRevision !== revision) return { outcome: 'stale' };
  const started = await deps.specs.startProcessing(organizationId, specId, revision, nowOf(deps));
  if (!started) return { outcome: 'stale' };
  await ctx.progress({ message: spec.source.kind === 'url' ? 'fetching and validating the document' : 'validating the document' });
  const { processing } = deps;
  const fetchFile = guardedFetcher(
    deps.fetch,
    { allowPrivate: processing.allowPrivate, timeoutMs: processing.fetchTimeoutMs, budget: { left: processing.maxBytes, total: processing.maxBytes } },
    ctx.signal,
  );
  let doc: ProcessedDocument;
  try {
    doc = await processDocument(spec.source, fetchFile, processing.maxFiles);
  } catch (err) {
    if (!(err instanceof DocumentProblem)) throw err;
    return recordFailure(deps, spec, revision, err);
  }
  ctx.signal.throwIfAborted();
  const stored = Buffer.byteLength(doc.filesystemJson) + Buffer.byteLength(doc.raw);
  if (stored > MAX_STORED_BYTES) {
    return recordFailure(
      deps,
      spec,
      revision,
      new DocumentProblem('PARSE_ERROR', [{ code: 'TOO_LARGE', message: `The document is too large to keep: ${stored} bytes as stored, at most ${MAX_STORED_BYTES}.` }]),
    );
  }
  const t0 = performance.now();
  const result = await recordVersion(deps, spec, revision, doc);
  logger.info('openapi spec: processed', {
    spec: specId,
    outcome: result.outcome,
    bytes: Buffer.byteLength(doc.raw),
    ms: { queued: queuedMs, ...doc.timings, store: Math.round(performance.now() - t0) },
  });
  return result;
}

/** Ends the processing with the problem: `complete`, its code and its first problems. Side effect: specs.spec.processed. */
async function recordFailure(deps: SpecsDeps, spec: SpecRecord, revision: number, problem: DocumentProblem): Promise<ProcessSpecResult> {
  const now = nowOf(deps);
  const { organizationId, _id: specId } = spec;
  const event = SpecsEvents.specProcessed.create(
    SOURCE,
    specId,
    { organizationId, specId, slug: spec.slug ?? '', versionId: spec.lastVersionId ?? '', newVersion: false, errorCode: problem.code },
    organizationId,
  );
  const applied = await deps.specs.recordFailure(organizationId, specId, revision, problem, now, [event]);
  if (!applied) return { outcome: 'stale' };
  logger.info('openapi spec: processing failed', { spec: specId, code: problem.code, problems: problem.count });
  return { outcome: 'failed', errorCode: problem.code, errors: problem.count };
}

/**
 * Records a processed document: a new version when its hash differs from the latest version's,
 * otherwise the processing ends on the latest version. The version's content (megabytes) is stored
 * first, outside any transaction; then one short transaction moves the latest pointer by
 * compare-and-set on the spec's version count and inserts the version that names that content. A
 * concurrent recording (another attempt of the same run, after a lost lease) that got there first
 * makes this one read again: two recordings of one document make one version, and the loser's content
 * is removed. (A crash between the two steps leaves content no version names: never served.)
 * Side effects: specs.spec_version.created (a new version), specs.spec.processed.
 */
export async function recordVersion(
  deps: SpecsDeps,
  spec: Pick<SpecRecord, '_id' | 'organizationId' | 'slug'>,
  revision: number,
  doc: ProcessedDocument,
): Promise<ProcessSpecResult> {
  const { organizationId, _id: specId } = spec;
  const slug = spec.slug ?? '';
  const versionId = newId();
  let stored = false;
  const discard = async () => {
    if (stored) await deps.versions.discardContent(specId, versionId).catch(() => undefined);
  };
  for (;;) {
    const current = await deps.specs.get(organizationId, specId);
    if (!current || current.sourceRevision !== revision) {
      await discard();
      return { outcome: 'stale' };
    }
    const now = nowOf(deps);
    if (current.lastVersionId && current.lastVersionHash === doc.hash) {
      const processed = SpecsEvents.specProcessed.create(
        SOURCE,
        specId,
        { organizationId, specId, slug, versionId: current.lastVersionId, newVersion: false, errorCode: '' },
        organizationId,
      );
      const applied = await deps.specs.endOnLatest(organizationId, specId, revision, current.versionCount, now, [processed]);
      if (applied) {
        await discard();
        return { outcome: 'version', versionId: current.lastVersionId, number: current.versionCount, newVersion: false };
      }
      continue;
    }
    // The content first (megabytes, outside the transaction), once; the transaction then only moves the pointer.
    if (!stored) {
      await deps.versions.storeContent({ _id: versionId, organizationId, specId, filesystemJson: doc.filesystemJson, raw: doc.raw, format: doc.format });
      stored = true;
    }
    const number = current.versionCount + 1;
    const version: VersionRecord = {
      _id: versionId,
      organizationId,
      specId,
      number,
      hash: doc.hash,
      format: doc.format,
      ...(doc.sourceUrl ? { sourceUrl: doc.sourceUrl } : {}),
      createdAt: now,
    };
    const events = [
      SpecsEvents.specVersionCreated.create(SOURCE, specId, { organizationId, specId, slug, versionId, number, hash: doc.hash }, organizationId),
      SpecsEvents.specProcessed.create(SOURCE, specId, { organizationId, specId, slug, versionId, newVersion: true, errorCode: '' }, organizationId),
    ];
    const moved = await deps.transaction(async (session) => {
      const advanced = await deps.specs.advanceLatest(organizationId, specId, revision, current.versionCount, { id: versionId, hash: doc.hash }, now, events, session);
      if (!advanced) return false;
      await deps.versions.insert(version, session);
      return true;
    });
    if (moved) {
      logger.info('openapi spec: new version', { spec: specId, version: versionId, number });
      return { outcome: 'version', versionId, number, newVersion: true };
    }
  }
}
