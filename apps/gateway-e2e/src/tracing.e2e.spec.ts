import { randomBytes } from 'node:crypto';
import { eventually, ReceivedSpan, startOtlpReceiver, startSystem, SystemUnderTest } from '@bindery/shared/testing';
import { http } from './http-client';

describe('one trace from the HTTP request to the event consumer', () => {
  let sut: SystemUnderTest;
  let collector: Awaited<ReturnType<typeof startOtlpReceiver>>;

  beforeAll(async () => {
    collector = await startOtlpReceiver();
    sut = await startSystem({ OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, OTEL_BSP_SCHEDULE_DELAY: '200' }, { services: ['identity'] });
  });
  afterAll(async () => {
    await sut?.stop();
    await collector?.close();
  });

  it('spans gateway → identity (gRPC) → MongoDB → Kafka → the consumer under the caller’s trace id', async () => {
    const traceId = randomBytes(16).toString('hex');
    const traceparent = `00-${traceId}-${randomBytes(8).toString('hex')}-01`;
    const res = await http(sut.baseUrl, sut.adminToken).post('/admin/users', { email: `traced-${traceId.slice(0, 8)}@example.com`, displayName: 'Traced' }, { traceparent });
    expect(res.status).toBe(201);

    // Creating a user publishes identity.user.created; identity's invite consumer applies it. Spans
    // reach the OTLP receiver in batches, so the check waits for them.
    const trace = await eventually(
      async () => {
        const spans = collector.spans.filter((s) => s.traceId === traceId);
        const has = (p: (s: ReceivedSpan) => boolean) => spans.some(p);
        const missing = [
          ['gateway HTTP server span named after its route', has((s) => s.service === 'gateway' && s.kind === 2 && s.name === 'POST /admin/users')],
          ['gateway gRPC client span', has((s) => s.service === 'gateway' && s.kind === 3 && s.attributes['rpc.system'] === 'grpc')],
          ['identity gRPC server span', has((s) => s.service === 'identity' && s.attributes['rpc.system'] === 'grpc' && s.kind === 2)],
          ['MongoDB span', has((s) => s.service === 'identity' && String(s.attributes['db.system'] ?? s.attributes['db.system.name']) === 'mongodb')],
          ['Kafka producer span', has((s) => s.kind === 4 && String(s.attributes['messaging.system']) === 'kafka')],
          ['consumer span', has((s) => s.name === 'consume identity.user.created' && s.kind === 5)],
        ]
          .filter(([, ok]) => !ok)
          .map(([name]) => name);
        if (missing.length) throw new Error(`missing in trace ${traceId}: ${missing.join(', ')}; have ${spans.map((s) => `${s.service}:${s.name}`).join(', ')}`);
        return spans;
      },
      20000,
      250,
    );
    expect(new Set(trace.map((s) => s.service))).toEqual(new Set(['gateway', 'identity']));

    // The logs carry the same trace id.
    expect(sut.apps.identity.output.some((l) => l.includes(`"trace_id":"${traceId}"`) && l.includes('event applied'))).toBe(true);
  });

  it('keeps secrets in URLs (invite ids) out of exported spans', async () => {
    const traceId = randomBytes(16).toString('hex');
    const secret = `gb_invite_${randomBytes(12).toString('hex')}`;
    const res = await http(sut.baseUrl, sut.adminToken).post(`/v1/orgs/some-org/invites/${secret}?key=${secret}`, undefined, {
      traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-01`,
    });
    expect(res.status).toBe(400); // the unknown query parameter is refused; the request was traced all the same
    // spans are exported in batches
    const spans = await eventually(async () => {
      const found = collector.spans.filter((s) => s.traceId === traceId && s.service === 'gateway' && s.kind === 2);
      if (!found.length) throw new Error('no gateway span yet');
      return found;
    });
    expect(JSON.stringify(spans)).toContain('[redacted]');
    expect(collector.spans.filter((s) => JSON.stringify(s).includes(secret))).toEqual([]);
  });
});
