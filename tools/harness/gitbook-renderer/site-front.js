'use strict';
// The site front: the address the browser opens. Each request is forwarded to the renderer with
// `x-gitbook-url` naming the site URL of the path asked (`<front>/<path>` is `<siteOrigin>/<path>`),
// the header the renderer's middleware reads first; answers are streamed through.
const http = require('node:http');

async function startSiteFront(rendererUrl, siteOrigin) {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, rendererUrl);
    const headers = { ...req.headers, host: url.host, 'x-gitbook-url': new URL(req.url, siteOrigin).toString() };
    const upstream = http.request(url, { method: req.method, headers }, (answer) => {
      res.writeHead(answer.statusCode, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', (err) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(err.message);
    });
    req.pipe(upstream);
  });
  // The renderer keeps connections open between pages: with Node's 5 s default, a connection closed
  // just as it is reused fails the renderer's call ("other side closed").
  server.keepAliveTimeout = 120000;
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  return { url: `http://127.0.0.1:${server.address().port}`, close: () => new Promise((r) => server.close(r)) };
}

module.exports = { startSiteFront };
