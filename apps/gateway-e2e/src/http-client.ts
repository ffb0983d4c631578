/** A small HTTP client for the end-to-end tests: raw status, headers and parsed body. */
export interface HttpResult<T = any> { // eslint-disable-line @typescript-eslint/no-explicit-any
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
  };
}
