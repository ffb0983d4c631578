/** The longest webhook URL accepted. */
export const MAX_WEBHOOK_URL = 2048;

/**
 * Why a webhook URL is refused before any request (undefined: acceptable so far). Every delivery
 * also goes through the outbound guard, which checks the addresses the name resolves to at that moment.
 */
export function webhookUrlProblem(raw: string): string | undefined {
  if (raw.length > MAX_WEBHOOK_URL) return `url must be at most ${MAX_WEBHOOK_URL} characters.`;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'url must be an absolute http(s) URL.';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'url must be an absolute http(s) URL.';
  if (url.username || url.password) return 'url must not carry credentials: put a token in its path or query, or verify the signature.';
  if (url.hash) return 'url must not have a fragment.';
  return undefined;
}
