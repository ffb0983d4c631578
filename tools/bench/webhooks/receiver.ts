// The bench's webhook receiver on loopback: records each delivery with its arrival time (this
// process's clock, the one the API's answers are timed with). Down, it answers 503 (`unavailable`) or
// is not listening at all (`refused`: connection refused), and records nothing.
import { createHmac, timingSafeEqual } from 'node:crypto';
import * as nodeHttp from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';

export interface Arrival {
  at: number;
  body: string;
  signature: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any;
}

export type ReceiverState = 'up' | 'unavailable' | 'refused';

/** The recipe of docs/webhooks.md ("Checking the signature"), as a receiver would write it. */
export function signatureOk(secret: string, header: string, rawBody: string): boolean {
  const [t, v1] = header.split(',').map((p) => p.split('=')[1]);
  const expected = createHmac('sha256', secret).update(`${t}.${rawBody}`).digest('hex');
  const given = Buffer.from(v1 ?? '', 'hex');
  return given.length === 32 && timingSafeEqual(given, Buffer.from(expected, 'hex')) && Math.abs(Date.now() / 1000 - Number(t)) < 300;
}

export async function startReceiver() {
  const arrivals: Arrival[] = [];
  let state: ReceiverState = 'up';
  let answered503 = 0;
  const server = nodeHttp.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (state !== 'up') {
        answered503 += 1;
        return void res.writeHead(503, { 'content-type': 'text/plain' }).end('deploying');
      }
      const body = Buffer.concat(chunks).toString('utf8');
      arrivals.push({ at: performance.now(), body, signature: String(req.headers['x-bindery-signature'] ?? ''), json: JSON.parse(body) });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const stopListening = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return {
    url: `http://127.0.0.1:${port}/hooks/bench`,
    arrivals,
    answered503: () => answered503,
    async set(next: ReceiverState): Promise<void> {
      if (next === state) return;
      if (next === 'refused') await stopListening();
      if (state === 'refused') await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
      state = next;
    },
    close: () => (state === 'refused' ? Promise.resolve() : stopListening()),
  };
}

export type Receiver = Awaited<ReturnType<typeof startReceiver>>;
