'use strict';
// Two small HTTP proxies on loopback:
// - the API recorder, which the renderer is pointed at as its API URL: it forwards every call to
//   Bindery's gateway and records method, path, status, time and (for refusals) the error message;
// - the site front, which the browser opens: it forwards to the renderer with `x-gitbook-url`
//   naming the site URL of the path asked, the header the renderer's middleware reads first.
const fs = require('node:fs');
const http = require('node:http');
const { unwrap, wrapResolution } = require('./token-adapter');

function listen(server) {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(server.address().port));
  });
}

/**
 * Forwards `req` to `target` with `extraHeaders`. The answer is streamed through, unless `transform`
 * (body → body) is given: then it is read whole and sent transformed. `onDone(status, body)` sees the
 * body as the target answered it.
 */
function forward(req, res, target, { extraHeaders = {}, transform, onDone } = {}) {
  const url = new URL(req.url, target);
  const headers = { ...req.headers, ...extraHeaders, host: url.host };
  const upstream = http.request(url, { method: req.method, headers }, (answer) => {
    const chunks = [];
    if (!transform) res.writeHead(answer.statusCode, answer.headers);
    answer.on('data', (c) => {
      if (onDone || transform) chunks.push(c);
      if (!transform) res.write(c);
    });
    answer.on('end', () => {
      const body = Buffer.concat(chunks);
      onDone?.(answer.statusCode, body);
      if (transform) {
        const sent = transform(body);
        const { 'transfer-encoding': _chunked, ...headers } = answer.headers;
        res.writeHead(answer.statusCode, { ...headers, 'content-length': String(sent.length) });
        res.end(sent);
      } else res.end();
    });
  });
  upstream.on('error', (err) => {
    onDone?.(502, Buffer.from(err.message));
    if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
    res.end(err.message);
  });
  req.pipe(upstream);
}

/** The message of a JSON error answer (`{error: {message}}`, as GitBook's and Bindery's are). */
function errorMessage(body) {
  try {
    const json = JSON.parse(body.toString('utf8'));
    return json?.error?.message ?? json?.message ?? '';
  } catch {
    return body.toString('utf8').slice(0, 200);
  }
}

/**
 * Records every call of the renderer to the API (also appended to `journal`, one JSON line each, to
 * follow a run). With `adaptTokens`, site tokens go through the JWT-shaped wrapper of
 * token-adapter.js. Resolves with { url, requests, close }.
 */
async function startApiRecorder(apiBaseUrl, { journal, adaptTokens = false } = {}) {
  const requests = [];
  const server = http.createServer((req, res) => {
    const started = Date.now();
    const entry = { method: req.method, path: req.url, auth: 'none' };
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      if (req.url === '/v1/urls/published') {
        try {
          entry.resolving = JSON.parse(body).url;
        } catch {
          /* not JSON: recorded without it */
        }
      }
    });
    // Uncompressed answers, so refusals can be read and resolutions rewritten.
    delete req.headers['accept-encoding'];
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '');
    if (adaptTokens && bearer) req.headers.authorization = `Bearer ${unwrap(bearer[1])}`;
    if (bearer && req.headers.authorization.startsWith('Bearer bsite_')) entry.auth = 'site token';
    else if (bearer) entry.auth = 'API token';
    const resolving = req.method === 'POST' && req.url.split('?')[0] === '/v1/urls/published';
    forward(req, res, apiBaseUrl, {
      transform: adaptTokens && resolving ? wrapResolution : undefined,
      onDone: (status, answer) => {
        Object.assign(entry, { status, ms: Date.now() - started });
        if (status >= 400) entry.error = errorMessage(answer);
        requests.push(entry);
        if (journal) fs.appendFileSync(journal, `${JSON.stringify(entry)}\n`);
      },
    });
  });
  const port = await listen(server);
  return { url: `http://127.0.0.1:${port}`, requests, close: () => new Promise((r) => server.close(r)) };
}

/** The address the browser opens: `<front>/<path>` is rendered as `<siteOrigin>/<path>`. */
async function startSiteFront(rendererUrl, siteOrigin) {
  const server = http.createServer((req, res) => forward(req, res, rendererUrl, { extraHeaders: { 'x-gitbook-url': new URL(req.url, siteOrigin).toString() } }));
  const port = await listen(server);
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((r) => server.close(r)) };
}

module.exports = { startApiRecorder, startSiteFront };
