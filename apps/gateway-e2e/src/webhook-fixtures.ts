import * as nodeHttp from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedDelivery {
  body: string;
  json: { id: string; type: string; organization: string; resource: { object: string; id: string; urls: { location: string } }; data: Record<string, unknown> };
  headers: nodeHttp.IncomingHttpHeaders;
}

/**
 * A webhook receiver on loopback: records every delivery in arrival order. While `down` it answers
 * 503 (and records nothing), as a receiver being deployed would.
 */
export async function webhookReceiver() {
  const received: ReceivedDelivery[] = [];
  let refused = 0;
  const state = { down: false };
  const server = nodeHttp.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (state.down) {
        refused += 1;
        return void res.writeHead(503, { 'content-type': 'text/plain' }).end('deploying');
      }
      const body = Buffer.concat(chunks).toString('utf8');
      received.push({ body, json: JSON.parse(body), headers: req.headers });
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hooks/bindery`,
    received,
    state,
    refused: () => refused,
    of: (organizationId: string) => received.filter((r) => r.json.organization === organizationId),
    close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))),
  };
}
