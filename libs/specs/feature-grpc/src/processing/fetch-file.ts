import { OutboundAddressRefusedError, OutboundRedirectLimitError, OutboundSchemeRefusedError, SafeFetch } from '@bindery/platform/outbound-http';
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
  const problem = (message: string, code = 'FETCH_FAILED') => new DocumentProblem('FETCH_ERROR', [{ code, message }]);
  if (err instanceof OutboundAddressRefusedError)
    return problem(`${what} was refused: host "${err.host}" is a loopback, private or otherwise non-public address.`, 'ADDRESS_REFUSED');
  if (err instanceof OutboundSchemeRefusedError) return problem(`${what} must use http or https.`, 'SCHEME_REFUSED');
  if (err instanceof OutboundRedirectLimitError) return problem(`${what} redirected more than ${err.maxRedirects} times.`, 'TOO_MANY_REDIRECTS');
  const name = (err as { name?: string })?.name;
  if (name === 'TimeoutError') return new DocumentProblem('FETCH_TIMEOUT', [{ code: 'TIMEOUT', message: `${what} did not answer within ${Math.round(timeoutMs / 100) / 10} s.` }]);
  if (err instanceof TypeError && /Invalid URL/.test(err.message)) return problem(`${what} is not a valid URL.`, 'INVALID_URL');
  const code = (err as { code?: unknown })?.code ?? (err as { cause?: { code?: unknown } })?.cause?.code;
  return problem(`${what} could not be fetched${typeof code === 'string' && /^[A-Z_]+$/.test(code) ? ` (${code})` : ''}.`);
}

async function readWithin(response: Response, budget: FetchLimits['budget'], what: string): Promise<string> {
  const declared = Number(response.headers.get('content-length'));
  const tooLarge = () => new DocumentProblem('FETCH_ERROR', [{ code: 'TOO_LARGE', message: `${what} is too large: the files of one spec may take ${budget.total} bytes in all.` }]);
  if (Number.isFinite(declared) && declared > budget.left) {
    await response.body?.cancel().catch(() => undefined);
    throw tooLarge();
  }
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  try {
    for (;;) {
      const next = await reader.read();
      if (next.done) break;
      budget.left -= next.value.byteLength;
      if (budget.left < 0) throw tooLarge();
      chunks.push(next.value);
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return Buffer.concat(chunks).toString('utf8');
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
