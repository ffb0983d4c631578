'use strict';
// The renderer's API calls as a Markdown table: one row per route shape (ids replaced by their
// names), with how many calls, their statuses and the first error message.

/** `/v1/spaces/abc/revisions/def/page/ghi/document?x=1` → `/v1/spaces/{id}/revisions/{id}/page/{id}/document?x=1`. */
function shapeOf(pathAndQuery) {
  const [pathname, query] = pathAndQuery.split('?');
  const names = {
    orgs: 'orgId',
    spaces: 'spaceId',
    sites: 'siteId',
    revisions: 'revisionId',
    page: 'pageId',
    pages: 'pageId',
    users: 'userId',
    'reusable-contents': 'reusableContentId',
    'change-requests': 'changeRequestId',
    documents: 'documentId',
    'site-spaces': 'siteSpaceId',
    'site-sections': 'siteSectionId',
    openapi: 'specSlug',
  };
  const parts = pathname.split('/');
  const shaped = parts.map((part, i) => (i > 0 && names[parts[i - 1]] && part !== '' && !/^(path|page)$/.test(part) ? `{${names[parts[i - 1]]}}` : part));
  // a page path after `page/path/` is the site's own words, not a route
  const at = shaped.indexOf('path');
  const route = (at > 0 && shaped[at - 1] === 'page' ? [...shaped.slice(0, at + 1), '{path}'] : shaped).join('/');
  const params = query ? [...new URLSearchParams(query).keys()].map((k) => `${k}=…`).join('&') : '';
  return params ? `${route}?${params}` : route;
}

function requestTable(requests) {
  const rows = new Map();
  for (const r of requests) {
    const key = `${r.method} ${shapeOf(r.path)}`;
    const row = rows.get(key) ?? { key, auth: new Set(), count: 0, statuses: new Map(), fallbacks: new Map(), error: '' };
    row.count++;
    row.auth.add(r.auth);
    row.statuses.set(r.status, (row.statuses.get(r.status) ?? 0) + 1);
    if (r.fallback !== undefined) row.fallbacks.set(r.fallback, (row.fallbacks.get(r.fallback) ?? 0) + 1);
    const error = r.fallbackError ?? r.error;
    if (error && !row.error) row.error = error.replace(/\|/g, '\\|').slice(0, 120);
    rows.set(key, row);
  }
  const counts = (m) => [...m].map(([s, n]) => `${s}×${n}`).join(', ');
  const lines = ['| request | as | calls | statuses | as a member (fallback) | first error |', '| --- | --- | --- | --- | --- | --- |'];
  for (const row of rows.values()) {
    lines.push(`| \`${row.key}\` | ${[...row.auth].join(', ')} | ${row.count} | ${counts(row.statuses)} | ${counts(row.fallbacks)} | ${row.error} |`);
  }
  return `${lines.join('\n')}\n`;
}

module.exports = { requestTable, shapeOf };
