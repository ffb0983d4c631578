/** How long a delivery is retried before it fails and its webhook is disabled. */
export const DELIVERY_RETRY_WINDOW_MS = 24 * 60 * 60 * 1000;

/** The most bytes of a receiver's answer kept with an attempt. */
export const RESPONSE_EXCERPT_BYTES = 1024;

/** A receiver has this long to answer one attempt. */
export const DELIVERY_TIMEOUT_MS = 10_000;

/** Whether a failed delivery first tried at `firstAttemptAt` is given up at `now`. */
export function retryWindowOver(firstAttemptAt: string, now: number, windowMs = DELIVERY_RETRY_WINDOW_MS): boolean {
  return now - Date.parse(firstAttemptAt) >= windowMs;
}

/** The start of a receiver's answer as text, cut at RESPONSE_EXCERPT_BYTES on a character boundary. */
export function responseExcerpt(bytes: Uint8Array): string | undefined {
  if (!bytes.length) return undefined;
  const cut = bytes.subarray(0, RESPONSE_EXCERPT_BYTES);
  const text = new TextDecoder('utf-8', { fatal: false }).decode(cut);
  return bytes.length > RESPONSE_EXCERPT_BYTES ? text.replace(/\uFFFD$/, '') : text;
}
