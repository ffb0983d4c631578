import { OutboundAddressRefusedError, OutboundRedirectLimitError, OutboundSchemeRefusedError } from './outbound-errors';

/** Why a server-side fetch failed, said for the person who gave the URL: a code and a sentence. */
export interface OutboundFailure {
  /** ADDRESS_REFUSED, SCHEME_REFUSED, TOO_MANY_REDIRECTS, TIMEOUT, INVALID_URL or FETCH_FAILED */
  code: 'ADDRESS_REFUSED' | 'SCHEME_REFUSED' | 'TOO_MANY_REDIRECTS' | 'TIMEOUT' | 'INVALID_URL' | 'FETCH_FAILED';
  message: string;
}

export interface FailureWording {
  /** the fetch's budget, named in the timeout's sentence */
  timeoutMs: number;
  /** what a timeout did not do (default "answer") */
  timedOut?: string;
  /** an abort counts as the timeout (the caller's own signal is the budget) */
  abortIsTimeout?: boolean;
}

/** Seconds with at most one decimal: 15 s, 0.4 s. */
const seconds = (ms: number) => Math.round(ms / 100) / 10;

/**
 * The one wording of outbound failures (`what` names the URL: "The url", "the source URL"). It names
 * the host at most, never the URL (it may carry credentials) nor the address a name resolved to.
 */
export function outboundFailure(err: unknown, what: string, wording: FailureWording): OutboundFailure {
  if (err instanceof OutboundAddressRefusedError)
    return { code: 'ADDRESS_REFUSED', message: `${what} was refused: host "${err.host}" is a loopback, private or otherwise non-public address.` };
  if (err instanceof OutboundSchemeRefusedError) return { code: 'SCHEME_REFUSED', message: `${what} must use http or https.` };
  if (err instanceof OutboundRedirectLimitError) return { code: 'TOO_MANY_REDIRECTS', message: `${what} redirected more than ${err.maxRedirects} times.` };
  const name = (err as { name?: string } | undefined)?.name;
  if (name === 'TimeoutError' || (wording.abortIsTimeout && name === 'AbortError'))
    return { code: 'TIMEOUT', message: `${what} did not ${wording.timedOut ?? 'answer'} within ${seconds(wording.timeoutMs)} s.` };
  if (err instanceof TypeError && /Invalid URL/.test(err.message)) return { code: 'INVALID_URL', message: `${what} is not a valid URL.` };
  const code = (err as { code?: unknown } | undefined)?.code ?? (err as { cause?: { code?: unknown } } | undefined)?.cause?.code;
  return { code: 'FETCH_FAILED', message: `${what} could not be fetched${typeof code === 'string' && /^[A-Z_]+$/.test(code) ? ` (${code})` : ''}.` };
}

/** Whether the outbound guard refused the request (address, scheme, redirects): trying again cannot help. */
export function isOutboundRefusal(err: unknown): boolean {
  return err instanceof OutboundAddressRefusedError || err instanceof OutboundSchemeRefusedError || err instanceof OutboundRedirectLimitError;
}
