import type { RouteSpec } from '@bindery/gateway/http';
import type { ChangeRequestsClients } from '@bindery/change-requests/client';
import { internalCaller } from '@bindery/platform/grpc';
import { logger } from '@bindery/platform/telemetry';

/** The counts are asked for as the gateway itself, of spaces content has just shown the caller (change-requests answers services only). */
const COUNTS_READER = internalCaller('gateway');

type SpaceObject = { object: 'space'; id: string; comments: number; changeRequests: number; changeRequestsOpen: number; changeRequestsDraft: number };

/** The space objects of an answer, where the routes put them (the body, list items, `space` fields), to a small depth. */
function spacesIn(node: unknown, into: SpaceObject[], depth = 0): SpaceObject[] {
  if (depth > 4 || !node || typeof node !== 'object') return into;
  if (Array.isArray(node)) {
    for (const n of node) spacesIn(n, into, depth + 1);
    return into;
  }
  const o = node as Record<string, unknown>;
  if (o.object === 'space' && typeof o.id === 'string') into.push(o as SpaceObject);
  else for (const v of Object.values(o)) if (v && typeof v === 'object') spacesIn(v, into, depth + 1);
  return into;
}

/**
 * The counts a space shows that change-requests keeps (its change requests by status, its open
 * comments), filled into every space of the routes' answers with one call per answer. When
 * change-requests cannot answer, the space is still served, its counts 0, and a warning is logged.
 */
export function withSpaceCounts(routes: RouteSpec[], stats: ChangeRequestsClients['stats']): RouteSpec[] {
  return routes.map((route) => ({
    ...route,
    async handler(ctx) {
      const result = await route.handler(ctx);
      const spaces = spacesIn(result.body, []);
      if (!spaces.length) return result;
      try {
        const { items } = await stats.spaceCounts({ spaceIds: [...new Set(spaces.map((s) => s.id))] }, { caller: COUNTS_READER, deadline: ctx.deadline });
        const byId = new Map(items.map((c) => [c.spaceId, c]));
        for (const s of spaces) {
          const c = byId.get(s.id);
          if (!c) continue;
          s.comments = c.comments;
          s.changeRequests = c.changeRequests;
          s.changeRequestsOpen = c.changeRequestsOpen;
          s.changeRequestsDraft = c.changeRequestsDraft;
        }
      } catch (err) {
        logger.warn('space counts unavailable', { route: route.operationId, error: err instanceof Error ? err.message : String(err) });
      }
      return result;
    },
  }));
}
