import type { ContentClients, ContentDownloadsClient, ContentUploadsClient } from '@bindery/content/client';
import { RunCredentialsRepository, SyncsRepository } from '@bindery/git-sync/data-access';
import { assertRef, parseRemote, projectDirectory } from '@bindery/git-sync/domain';
import { forbidden, invalid } from '@bindery/platform/errors';
import type { Caller } from '@bindery/platform/grpc';
import type { RunStore } from '@bindery/platform/runs';
import type { Transaction } from '@bindery/platform/mongo';
import { gitSyncV1 as pb } from '@bindery/shared/contracts';

export interface GitSyncDeps {
  syncs: SyncsRepository;
  credentials: RunCredentialsRepository;
  runs: RunStore;
  content: ContentClients;
  /** file bytes, for the files an export writes (absent: new files are not exported) */
  downloads?: ContentDownloadsClient;
  /** file bytes, for the files an import stages in content before its ImportTree */
  uploads: ContentUploadsClient;
  transaction: Transaction;
  cacheDir: string;
  /** the longest one git command may take */
  timeoutMs: number;
  /** the longest a run may take (GIT_SYNC_RUN_TIMEOUT_MS) */
  runTimeoutMs: number;
  /** the most a fetched ref may bring (GIT_SYNC_MAX_REPO_BYTES) */
  maxRepoBytes: number;
  author: { name: string; email: string };
}

export const GIT_SYNC_RUNS = { import: 'git-sync.import', export: 'git-sync.export' } as const;

/** The caller's standing on a space as content answers it (a space they cannot read is content's 404). */
async function spaceOf(deps: GitSyncDeps, caller: Caller, spaceId: string) {
  const space = await deps.content.spaces.getSpace({ spaceId }, { caller });
  return { id: space.id, organizationId: space.organization, canEdit: !!space.permissions?.edit || !!space.permissions?.admin };
}

function checkTimestamp(t: string): string {
  if (t && Number.isNaN(Date.parse(t))) throw invalid('timestamp must be a date-time.');
  return t;
}

async function start(deps: GitSyncDeps, caller: Caller, kind: string, req: pb.ImportRequest | pb.ExportRequest, extra: Record<string, unknown>): Promise<pb.StartReply> {
  const remote = parseRemote(req.url);
  assertRef(req.ref);
  const dir = projectDirectory(req.repoProjectDirectory);
  checkTimestamp(req.timestamp);
  const space = await spaceOf(deps, caller, req.spaceId);
  if (!space.canEdit) throw forbidden('Importing into or exporting a space needs its edit permission.');
  const input: Record<string, unknown> = {
    spaceId: space.id,
    organizationId: space.organizationId,
    url: remote.url,
    ref: req.ref,
    repoCacheId: req.repoCacheId,
    repoProjectDirectory: dir,
    repoTreeUrl: req.repoTreeUrl,
    repoCommitUrl: req.repoCommitUrl,
    timestamp: req.timestamp,
    force: req.force,
    provider: req.gitInfoProvider,
    treeUrl: req.gitInfoUrl,
    ...extra,
  };
  const run = await deps.transaction(async (session) => {
    // one run at a time per space: an import and an export of a space wait for each other
    const { run } = await deps.runs.enqueue({ kind, input, organizationId: space.organizationId, createdBy: caller.userId, serialKey: `space:${space.id}` }, session);
    if (remote.authorization) await deps.credentials.put(run._id, remote.authorization, session);
    return run;
  });
  return { runId: run._id };
}

export const startImport = (deps: GitSyncDeps, caller: Caller, req: pb.ImportRequest) => start(deps, caller, GIT_SYNC_RUNS.import, req, { standalone: req.standalone });

export function startExport(deps: GitSyncDeps, caller: Caller, req: pb.ExportRequest) {
  if (!req.commitMessage.trim()) throw invalid('commitMessage must not be empty.');
  return start(deps, caller, GIT_SYNC_RUNS.export, req, { commitMessage: req.commitMessage });
}

/** The sync state of a space the caller can read; empty when it was never synced. */
export async function getInfo(deps: GitSyncDeps, caller: Caller, req: pb.GetInfoRequest): Promise<pb.GitInfo> {
  const space = await spaceOf(deps, caller, req.spaceId);
  const sync = await deps.syncs.get(space.id);
  if (!sync) return { repoName: '', installationProvider: '', integration: '', url: '', updatedAt: '', commit: '' };
  return {
    repoName: sync.repoName,
    installationProvider: sync.provider ?? '',
    integration: '',
    url: sync.treeUrl ?? sync.url,
    updatedAt: sync.updatedAt,
    commit: sync.commit ?? '',
  };
}
