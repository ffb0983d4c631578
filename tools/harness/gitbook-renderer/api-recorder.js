'use strict';
// The API recorder: the renderer is pointed at it as its API URL. It forwards every call to Bindery's
// gateway and records method, path and query, who called (no token, an API token, a site token),
// status, time and the error message of a refusal. Two optional adaptations let a run go past what
// stops the renderer first, each recorded beside Bindery's own answer:
// - `adaptTokens`: site tokens reach the renderer in a JWT-shaped wrapper (token-adapter.js);
// - `memberToken`: a call Bindery refuses to the site token because the route is not open to site
//   tokens (403) is made again with this API token of a member of the organization, and that answer
//   is handed to the renderer (`fallback` in the record);
// - `completeCustomization`: a published site's customization without `socialAccounts` or
//   `styling.codeTheme` (both required by 0.202.0's SiteCustomizationSettings; the renderer reads
//   `socialAccounts.filter(…)` on every page and `codeTheme` in every code block) is handed over with
//   an empty list and GitBook's default code themes (`completed` in the record).
const fs = require('node:fs');
const http = require('node:http');
const { unwrap, wrapResolution } = require('./token-adapter');

const SITE_TOKEN_REFUSAL = 'A site token only reads the published content of its site.';
const DROPPED = new Set(['host', 'accept-encoding', 'content-length', 'connection', 'transfer-encoding']);

function readBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function errorMessage(body) {
  try {
    const json = JSON.parse(body.toString('utf8'));
    return json?.error?.message ?? json?.message ?? '';
  } catch {
    return body.toString('utf8').slice(0, 200);
  }
}

async function call(apiBaseUrl, req, headers, body) {
  const res = await fetch(new URL(req.url, apiBaseUrl), {
    method: req.method,
    headers,
    body: ['GET', 'HEAD'].includes(req.method) ? undefined : body,
  });
  return { status: res.status, headers: res.headers, body: Buffer.from(await res.arrayBuffer()) };
}

const CODE_THEME = { light: 'default-light', dark: 'default-dark' };

/**
 * Fills what 0.202.0's SiteCustomizationSettings requires and a published site's customizations lack
 * (`socialAccounts`, `styling.codeTheme`: the renderer reads both); answers the body and the fields
 * filled, or null when nothing lacked.
 */
function completedCustomization(body) {
  const json = JSON.parse(body.toString('utf8'));
  const settings = [json?.customizations?.site, ...Object.values(json?.customizations?.siteSpaces ?? {})].filter(Boolean);
  const filled = new Set();
  for (const c of settings) {
    if (!Array.isArray(c.socialAccounts)) {
      c.socialAccounts = [];
      filled.add('socialAccounts');
    }
    if (c.styling && !c.styling.codeTheme) {
      c.styling.codeTheme = { default: CODE_THEME, openapi: CODE_THEME };
      filled.add('styling.codeTheme');
    }
  }
  return filled.size ? { body: Buffer.from(JSON.stringify(json)), filled: [...filled].join(', ') } : null;
}

async function startApiRecorder(apiBaseUrl, { journal, adaptTokens = false, memberToken, completeCustomization = false } = {}) {
  const requests = [];
  const handle = async (req, res) => {
    const started = Date.now();
    const entry = { method: req.method, path: req.url, auth: 'none' };
    const body = await readBody(req);
    const resolving = req.method === 'POST' && req.url.split('?')[0] === '/v1/urls/published';
    if (resolving) entry.resolving = JSON.parse(body.toString('utf8') || '{}').url;
    const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => !DROPPED.has(k)));
    const bearer = /^Bearer (.+)$/.exec(headers.authorization ?? '');
    if (bearer) {
      const token = adaptTokens ? unwrap(bearer[1]) : bearer[1];
      headers.authorization = `Bearer ${token}`;
      entry.auth = token.startsWith('bsite_') ? 'site token' : 'API token';
    }
    let answer = await call(apiBaseUrl, req, headers, body);
    Object.assign(entry, { status: answer.status });
    if (answer.status >= 400) entry.error = errorMessage(answer.body);
    if (memberToken && entry.auth === 'site token' && answer.status === 403 && entry.error === SITE_TOKEN_REFUSAL) {
      answer = await call(apiBaseUrl, req, { ...headers, authorization: `Bearer ${memberToken}` }, body);
      entry.fallback = answer.status;
      if (answer.status >= 400) entry.fallbackError = errorMessage(answer.body);
    }
    let sent = adaptTokens && resolving && answer.status === 200 ? wrapResolution(answer.body) : answer.body;
    if (completeCustomization && answer.status === 200 && /^\/v1\/orgs\/[^/]+\/sites\/[^/]+\/published$/.test(req.url.split('?')[0])) {
      const completed = completedCustomization(answer.body);
      if (completed) [sent, entry.completed] = [completed.body, completed.filled];
    }
    entry.ms = Date.now() - started;
    requests.push(entry);
    if (journal) fs.appendFileSync(journal, `${JSON.stringify(entry)}\n`);
    const out = Object.fromEntries([...answer.headers].filter(([k]) => !['content-encoding', 'content-length', 'transfer-encoding', 'connection'].includes(k)));
    res.writeHead(answer.status, { ...out, 'content-length': String(sent.length) });
    res.end(sent);
  };
  const server = http.createServer((req, res) =>
    handle(req, res).catch((err) => {
      requests.push({ method: req.method, path: req.url, status: 502, error: err.message });
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(err.message);
    }),
  );
  // The renderer keeps connections open between pages: with Node's 5 s default, a connection closed
  // just as it is reused fails the renderer's call ("other side closed").
  server.keepAliveTimeout = 120000;
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  return { url: `http://127.0.0.1:${server.address().port}`, requests, close: () => new Promise((r) => server.close(r)) };
}

module.exports = { startApiRecorder };
