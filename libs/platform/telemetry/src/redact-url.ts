/**
 * Path segments that are secrets (the official API puts invite ids in join URLs; share-link keys
 * follow; a file download's signed token is its whole authorization). Telemetry and logs see `[redacted]` in their place, and never a query string.
 */
const SECRET_SEGMENTS = [/(\/(?:link-)?invites\/)[^/?#]+/g, /(\/share-links\/)[^/?#]+/g, /^(\/downloads\/)[^/?#]+/];

export function redactUrlPath(url: string): string {
  let path = url.split(/[?#]/, 1)[0];
  for (const pattern of SECRET_SEGMENTS) path = path.replace(pattern, '$1[redacted]');
  return path;
}
