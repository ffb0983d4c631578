import * as nodeHttp from 'node:http';
import type { AddressInfo } from 'node:net';
import { crc32, deflateSync } from 'node:zlib';

/** A real w×h greyscale PNG, built here (no binary fixtures); `shade` makes each image's bytes distinct. */
export function png(width: number, height: number, shade: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const head = Buffer.alloc(4);
    head.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body) >>> 0);
    return Buffer.concat([head, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 0, 0, 0, 0], 8);
  const rows = Buffer.concat(Array.from({ length: height }, () => Buffer.from([0, ...Array.from({ length: width }, () => shade)])));
  return Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), chunk('IHDR', header), chunk('IDAT', deflateSync(rows)), chunk('IEND', Buffer.alloc(0))]);
}

export interface SitePage {
  /** the URL path, e.g. /docs/s1/p2 */
  path: string;
  title: string;
  /** the path of the page it sits under in the imported tree (null: top level) */
  parent: string | null;
  /** paths of the other site pages its main content links to */
  links: string[];
  /** image paths its main content shows */
  images: string[];
}

export interface TestWebsite {
  origin: string;
  pages: SitePage[];
  /** every image path served, with its bytes */
  images: Map<string, Buffer>;
  /** every request path that reached the server */
  requests: string[];
  /** how long each page answer waits (0 by default; raise it to watch an import in progress) */
  pageDelayMs: number;
  close(): Promise<void>;
}

const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');

function pagesOfSite(): SitePage[] {
  const pages: SitePage[] = [{ path: '/docs/', title: 'Home', parent: null, links: [], images: ['/docs/assets/logo.png'] }];
  for (let s = 0; s < 5; s += 1) {
    const section = `/docs/s${s}`;
    pages.push({ path: section, title: `Section ${s}`, parent: null, links: [], images: [`/docs/assets/section-${s}.png`] });
    for (let p = 0; p < 4; p += 1) {
      const page = `${section}/p${p}`;
      pages.push({ path: page, title: `Section ${s} page ${p}`, parent: section, links: [], images: p === 0 ? ['/docs/assets/logo.png'] : [] });
      pages.push({ path: `${page}/deep`, title: `Deep ${s}.${p}`, parent: page, links: [], images: [] });
      if (s === 0) pages.push({ path: `${page}/deep/deeper`, title: `Deeper 0.${p}`, parent: `${page}/deep`, links: [], images: [] });
    }
  }
  // cross-links: home → sections; each page → its children, its parent, and the next page in the list
  for (const [i, page] of pages.entries()) {
    const children = pages.filter((c) => c.parent === page.path || (page.path === '/docs/' && c.parent === null && c !== page)).map((c) => c.path);
    page.links = [...new Set([...children, ...(page.parent ? [page.parent] : []), pages[(i + 1) % pages.length].path])].filter((l) => l !== page.path);
  }
  return pages;
}

function htmlOf(page: SitePage, pages: SitePage[]): string {
  const nav = pages.filter((p) => p.parent === null).map((p) => `<a href="${p.path}">${escape(p.title)}</a>`);
  const links = page.links.map((l) => `<li><a href="${l}">${escape(pages.find((p) => p.path === l)!.title)}</a></li>`).join('');
  const images = page.images.map((src, i) => `<p><img src="${src}" alt="Figure ${i}"></p>`).join('');
  return `<!doctype html><html><head><title>${escape(page.title)} · Test site</title><style>body{color:red}</style><script>var x = 1;</script></head>
<body><header><a href="/docs/">Test site</a></header><nav>${nav.join(' ')}</nav>
<main><h1>${escape(page.title)}</h1>
<p>This is <strong>${escape(page.title)}</strong>, with <em>emphasis</em> and <code>code</code>.</p>
<h2>Related</h2><ul>${links}</ul>
${images}
<pre><code class="language-js">console.log(${JSON.stringify(page.path)});</code></pre>
<table><thead><tr><th>Key</th><th>Value</th></tr></thead><tbody><tr><td>path</td><td>${escape(page.path)}</td></tr></tbody></table>
<p>Elsewhere: <a href="/outside/page">outside the prefix</a>, <a href="/docs/private/secret">private</a>, <a href="https://example.invalid/x">external</a>.</p>
</main><footer>Footer text <a href="/docs/s0">s0</a></footer></body></html>`;
}

/**
 * A 50-page documentation site on 127.0.0.1: nested paths under /docs/ (home, 5 sections of 4 pages,
 * each with a deep page, section 0 one level deeper still), navigation, header and footer around a
 * <main>, cross-links, a shared logo and one image per section; robots.txt disallows /docs/private/.
 */
export async function startTestWebsite(): Promise<TestWebsite> {
  const pages = pagesOfSite();
  const images = new Map<string, Buffer>([['/docs/assets/logo.png', png(4, 3, 7)]]);
  for (let s = 0; s < 5; s += 1) images.set(`/docs/assets/section-${s}.png`, png(5 + s, 2, 40 + s));
  const requests: string[] = [];
  const state = { pageDelayMs: 0 };
  const server = nodeHttp.createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    requests.push(path);
    if (path === '/robots.txt') return void res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow: /docs/private/\n');
    const image = images.get(path);
    if (image) return void res.writeHead(200, { 'content-type': 'image/png', 'content-length': image.length }).end(image);
    const page = pages.find((p) => p.path === path);
    if (page) return void setTimeout(() => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(htmlOf(page, pages)), state.pageDelayMs);
    res.writeHead(404, { 'content-type': 'text/html' }).end('<html><body><main><h1>Not found</h1></main></body></html>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    pages,
    images,
    requests,
    get pageDelayMs() {
      return state.pageDelayMs;
    },
    set pageDelayMs(ms: number) {
      state.pageDelayMs = ms;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
