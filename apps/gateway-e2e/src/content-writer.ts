import { connectContent, officialFile, officialUpdateChange } from '@bindery/content/client';
import type { SystemUnderTest } from '@bindery/shared/testing';

/**
 * Writes a space's content the way the next service (change requests) will: content's ApplyChanges
 * over gRPC, as a signed caller. Over HTTP, content changes arrive with change requests; until then
 * the tests write through here. The test process signs with the system's internal secret.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

export interface ContentWriter {
  apply(
    userId: string,
    spaceId: string,
    changes: unknown[],
    options?: { baseRevisionId?: string; updateCurrent?: boolean },
  ): Promise<{ revisionId: string; changes: Json[]; insertedFiles: Json[] }>;
  close(): void;
}

export function contentWriter(sut: SystemUnderTest): ContentWriter {
  process.env.BINDERY_INTERNAL_SECRET = sut.env.BINDERY_INTERNAL_SECRET;
  const clients = connectContent(`127.0.0.1:${sut.ports.content}`, 120000);
  return {
    async apply(userId, spaceId, changes, options = {}) {
      const r = await clients.revisions.applyChanges(
        {
          spaceId,
          changesJson: JSON.stringify(changes),
          updateCurrent: options.updateCurrent ?? true,
          baseRevisionId: options.baseRevisionId ?? '',
          revisionType: '',
          mergedFrom: '',
          revertRevisionId: '',
        },
        { caller: { userId, isInstanceAdmin: false } },
      );
      return { revisionId: r.revisionId, changes: r.changes.map(officialUpdateChange), insertedFiles: r.insertedFiles.map(officialFile) };
    },
    close: () => clients.close(),
  };
}
