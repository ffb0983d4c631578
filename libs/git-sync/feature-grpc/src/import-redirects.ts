import { resolveGitRedirects } from '@bindery/git-sync/domain';
import type { gitSyncEventsV1 } from '@bindery/shared/contracts';
import type { SyncInput } from './git-sync-common';

/**
 * The redirects an import's completed-sync event carries for the sites that publish the space: those
 * of `.gitbook.yaml`, resolved against the pages the import wrote (`pageOfSource`: content's answer,
 * each imported file and its page). None for a standalone import: its revision is not the one the
 * space publishes, so the space's Git redirects stay as the last import left them.
 */
export function importRedirects(
  input: Pick<SyncInput, 'standalone'>,
  redirects: Record<string, string>,
  pageOfSource: Record<string, string>,
): { redirects?: gitSyncEventsV1.GitRedirects; count: number; leftOut: string[] } {
  if (input.standalone) return { count: 0, leftOut: [] };
  const pages = new Map(Object.entries(pageOfSource).filter(([source]) => !source.startsWith('group:')));
  const resolved = resolveGitRedirects(redirects, pages);
  return { redirects: { items: resolved.redirects }, count: resolved.redirects.length, leftOut: resolved.leftOut };
}
