/** A small HTTP client for the end-to-end tests: raw status, headers and parsed body. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export interface HttpResult<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export function http(baseUrl: string, token?: string) {
  async function send(method: string, path: string, body?: unknown, extraHeaders: Record<string, string> = {}): Promise<HttpResult> {
    const headers: Record<string, string> = { accept: 'application/json', ...extraHeaders };
    if (token !== undefined) headers.authorization = `Bearer ${token}`;
    let payload: string | undefined;
    if (body !== undefined) {
      headers['content-type'] ??= 'application/json';
      payload = typeof body === 'string' ? body : JSON.stringify(body);
    }
    const res = await fetch(baseUrl + path, { method, headers, body: payload });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // left as text: the test says whether that is acceptable
    }
    return { status: res.status, body: parsed, headers: res.headers };
  }
  return {
    get: (path: string, headers?: Record<string, string>) => send('GET', path, undefined, headers),
    post: (path: string, body?: unknown, headers?: Record<string, string>) => send('POST', path, body, headers),
    patch: (path: string, body?: unknown, headers?: Record<string, string>) => send('PATCH', path, body, headers),
    put: (path: string, body?: unknown) => send('PUT', path, body),
    delete: (path: string) => send('DELETE', path),
    send,
    /** the headers that carry this client's credentials, for requests it does not send itself */
    credentials: (token !== undefined ? { authorization: `Bearer ${token}` } : {}) as Record<string, string>,
  };
}

export type Client = ReturnType<typeof http>;

/**
 * Every item of a list, following `next.page` with the given page size. `onPage` sees each page's
 * body and the cursor that fetched it (for assertions on every page).
 */
export async function walk<T = Record<string, unknown>>(
  client: Client,
  path: string,
  limit: number,
  onPage?: (body: { count: number; items: T[]; next?: { page: string } }, cursor: string | undefined) => void,
): Promise<T[]> {
  const items: T[] = [];
  let page: string | undefined;
  const sep = path.includes('?') ? '&' : '?';
  do {
    const res = await client.get(`${path}${sep}limit=${limit}${page ? `&page=${encodeURIComponent(page)}` : ''}`);
    if (res.status !== 200) throw new Error(`walk ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    onPage?.(res.body, page);
    items.push(...res.body.items);
    page = res.body.next?.page;
  } while (page);
  return items;
}
