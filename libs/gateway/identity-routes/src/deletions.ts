import { isNothingToDelete } from '@bindery/platform/errors';
import type { RouteResult } from '@bindery/gateway/http';

/**
 * The official answer to a DELETE: 205 when something was deleted, 204 when it did not exist. A
 * delete under an organization the caller cannot see, or may not change, fails as before (404, 403):
 * identity checks those first, and only then reports that there was nothing to delete.
 */
export async function deleteAnswer(deletion: Promise<unknown>): Promise<RouteResult> {
  try {
    await deletion;
    return { status: 205 };
  } catch (err) {
    if (isNothingToDelete(err)) return { status: 204 };
    throw err;
  }
}

/** The same answer when identity tells whether anything was deleted. */
export const deletedOrNot = (deleted: boolean): RouteResult => ({ status: deleted ? 205 : 204 });
