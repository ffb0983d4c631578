'use strict';
// The renderer reads its site token as a JWT (`jwtDecode`: the payload is the second of three
// dot-separated parts, with `exp` and GitBook's SiteAPIToken fields); Bindery's site tokens are
// `bsite_<payload>.<signature>`, two parts, and the renderer fails on them (a 500 on every page).
// With the adapter on, the API recorder hands the renderer a JWT-shaped wrapper of each site token
// and unwraps it on the way back, so that the rest of what the renderer needs can be seen: the
// wrapper's payload restates the resolution's answer, its third part carries Bindery's token.
// Site tokens are now JWT-shaped themselves (`bsite_<header>.<payload>.<signature>`): those pass
// through unchanged, and the adapter only matters against an instance minting the earlier form.

const b64 = (value) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');
const HEADER = b64({ alg: 'none', typ: 'JWT' });

/** Bindery's token payload ({i, s, o, c?, iat, exp}), or null when it is not one of Bindery's site tokens. */
function binderyPayload(token) {
  if (typeof token !== 'string' || !token.startsWith('bsite_') || token.split('.').length !== 2) return null;
  try {
    return JSON.parse(Buffer.from(token.slice('bsite_'.length).split('.')[0], 'base64url').toString('utf8'));
  } catch {
    return null;
  }
}

/** The wrapper of the site token in a resolution's answer (`PublishedSiteContent`). */
function wrap(content) {
  const payload = binderyPayload(content.apiToken);
  if (!payload) return content.apiToken;
  const claims = {
    kind: 'site',
    organization: content.organization,
    site: content.site,
    siteSpace: content.siteSpace,
    ...(content.siteSection ? { siteSection: content.siteSection } : {}),
    space: content.space,
    spaces: [content.space],
    ...(payload.c ? { claims: payload.c } : {}),
    iat: payload.iat,
    exp: payload.exp,
  };
  return `${HEADER}.${b64(claims)}.${b64(content.apiToken)}`;
}

/** Bindery's token inside a wrapper, or the token as it came. */
function unwrap(token) {
  const parts = token.split('.');
  if (parts.length !== 3 || parts[0] !== HEADER) return token;
  return Buffer.from(parts[2], 'base64url').toString('utf8');
}

/** Rewrites the `apiToken` of a JSON resolution answer; answers the body unchanged otherwise. */
function wrapResolution(body) {
  try {
    const json = JSON.parse(body.toString('utf8'));
    if (!json || typeof json.apiToken !== 'string') return body;
    return Buffer.from(JSON.stringify({ ...json, apiToken: wrap(json) }));
  } catch {
    return body;
  }
}

module.exports = { wrapResolution, unwrap };
