import { outboundFailure, SafeFetch, textWithinBudget } from '@bindery/platform/outbound-http';
import { DocumentProblem } from './document-problem';

export const SPECS_USER_AGENT = 'BinderySpecs';

/** A fetched file: its text and the URL it came from after redirects (what its relative `$ref`s are resolved against). */
export interface FetchedFile {
  text: string;
  url: string;
}

/** Fetches one file of a document; `what` names it in problems ("the source URL", `the $ref "…" at paths…`). */
export type FileFetcher = (url: string, what: string) => Promise<FetchedFile>;

export interface FetchLimits {
  allowPrivate: boolean;
  /** budget of one file's fetch, redirects and body included */
  timeoutMs: number;
  /** bytes every file of one document may take together (a shared budget) */
  budget: { left: number; total: number };
}

/**
 * Why a fetch failed, for a person: the host at most, never the URL (it may carry credentials).
 * A timeout is FETCH_TIMEOUT; every other failure (refused address, scheme, redirects, HTTP status,
 * size, connection) FETCH_ERROR.
 */
export function fetchProblem(err: unknown, what: string, timeoutMs: number): DocumentProblem {
  if (err instanceof DocumentProblem) return err;
  const { code, message } = outboundFailure(err, what, { timeoutMs });
  return new DocumentProblem(code === 'TIMEOUT' ? 'FETCH_TIMEOUT' : 'FETCH_ERROR', [{ code, message }]);
}

async function readWithin(response: Response, budget: FetchLimits['budget'], what: string): Promise<string> {
  const text = await textWithinBudget(response, budget);
  if (text === undefined)
    throw new DocumentProblem('FETCH_ERROR', [{ code: 'TOO_LARGE', message: `${what} is too large: the files of one spec may take ${budget.total} bytes in all.` }]);
  return text;
}

/**
 * Every file of a spec is fetched through the outbound guard (`fetch` is `safeFetch`): loopback,
 * private and metadata addresses refused unless the operator allows them, each redirect checked
 * again (at most 5), each file within `timeoutMs`, all files within one byte budget.
 */
export function guardedFetcher(fetch: SafeFetch, limits: FetchLimits, signal?: AbortSignal): FileFetcher {
  return async (url, what) => {
    let response: Response;
    try {
      response = await fetch(url, {
        allowPrivate: limits.allowPrivate,
        timeoutMs: limits.timeoutMs,
        maxRedirects: 5,
        signal,
        headers: { accept: 'application/json, application/yaml, text/yaml, text/plain;q=0.9, */*;q=0.5', 'user-agent': SPECS_USER_AGENT },
      });
    } catch (err) {
      if (signal?.aborted) throw signal.reason ?? err;
      throw fetchProblem(err, what, limits.timeoutMs);
    }
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      throw new DocumentProblem('FETCH_ERROR', [{ code: 'HTTP_STATUS', message: `${what} answered HTTP ${response.status}.` }]);
    }
    try {
      return { text: await readWithin(response, limits.budget, what), url: response.url || url };
    } catch (err) {
      if (signal?.aborted) throw signal.reason ?? err;
      throw fetchProblem(err, what, limits.timeoutMs);
    }
  };
}
