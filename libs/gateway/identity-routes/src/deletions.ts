import type { RouteResult } from '@bindery/gateway/http';

/**
 * The official answer to a DELETE: 205 when something was deleted, 204 when it did not exist. A
 * delete under an organization the caller cannot see, or may not change, fails before (404, 403):
 * identity checks those first, and only then tells whether anything was deleted.
 */
export const deletedOrNot = (deleted: boolean): RouteResult => ({ status: deleted ? 205 : 204 });
