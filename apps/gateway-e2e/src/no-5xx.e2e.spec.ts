import { assertErrorBody, sharedSystem, SystemUnderTest } from '@bindery/shared/testing';
import { createOrganization, createUser } from './fixtures';
import { http } from './http-client';

// Odd values for every place input enters: path parameters, query parameters and bodies.
const ODD_VALUES: unknown[] = [
  null,
  true,
  -1,
  1e308,
  '',
  ' ',
  'x'.repeat(5000),
  '../../etc/passwd',
  '%00',
  '{"$gt":""}',
  'ünïcödé 🙂',
  [],
  [null],
  {},
  { $where: '1' },
  { a: { b: { c: { d: { e: {} } } } } },
];

/**
 * Every served route, called with odd input by an authenticated admin: whatever it is, the answer is
 * never a 5xx, and every failure carries the error body.
 */
describe('no input produces a 5xx', () => {
  let sut: SystemUnderTest;
  let client: ReturnType<typeof http>;
  let orgId: string;
  let real: Record<string, string>;

  beforeAll(async () => {
    sut = await sharedSystem();
    const user = await createUser(sut, 'fuzz');
    orgId = await createOrganization(sut, user, 'Fuzz');
    client = http(sut.baseUrl, user.token);
    // A real collection and space, made at once in the new organization.
    const created = await client.post(`/v1/orgs/${orgId}/collections`, { title: 'Fuzz' });
    if (created.status !== 201) throw new Error(`create collection: ${created.status}`);
    const collection = created.body as { id: string };
    const space = (await client.post(`/v1/orgs/${orgId}/spaces`, { title: 'Fuzz', parent: collection.id })).body as { id: string };
    real = { organizationId: orgId, collectionId: collection.id, spaceId: space.id };
  });

  // Longer than the tier: many bad requests to every route of /openapi.json.
  it('holds for every route in /openapi.json', async () => {
    const doc = (await http(sut.baseUrl).get('/openapi.json')).body as {
      paths: Record<string, Record<string, { parameters?: Array<{ name: string; in: string }>; requestBody?: unknown }>>;
    };
    const failures: string[] = [];
    let calls = 0;
    for (const [template, operations] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(operations)) {
        const queryNames = (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
        for (const [i, odd] of ODD_VALUES.entries()) {
          // Path parameters: the real organization, collection and space for half the calls, so deeper checks are reached.
          const text = typeof odd === 'string' ? odd : JSON.stringify(odd);
          const path = template.replace(/\{([^}]+)\}/g, (_m, name) => (real[name] && i % 2 === 0 ? real[name] : encodeURIComponent(text)));
          const query = queryNames.map((q) => `${q}=${encodeURIComponent(text)}`).join('&');
          const body = op.requestBody ? (i % 3 === 0 ? { title: odd, emails: odd, role: odd, label: odd, add: odd } : odd) : undefined;
          const res = await client.send(method.toUpperCase(), query ? `${path}?${query}` : path, body === undefined ? undefined : JSON.stringify(body), {
            'content-type': 'application/json',
          });
          calls++;
          const shown = `${method.toUpperCase()} ${path.slice(0, 120)}`;
          if (res.status >= 500) failures.push(`${shown} → ${res.status} ${JSON.stringify(res.body)}`);
          else if (res.status >= 400) {
            try {
              assertErrorBody(res.status, res.body);
            } catch (err) {
              failures.push(`${shown}: ${(err as Error).message}`);
            }
          }
        }
      }
    }
    expect(calls).toBeGreaterThan(500);
    expect(failures).toEqual([]);
  }, 300_000);
});
