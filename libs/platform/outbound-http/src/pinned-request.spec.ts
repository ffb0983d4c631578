import type { LookupAddress, LookupOptions } from 'node:dns';
import { pinnedLookup } from './pinned-request';

type Outcome = { err: NodeJS.ErrnoException | null; address: string | LookupAddress[]; family?: number };

function callLookup(host: string, options: LookupOptions): Outcome {
  const lookup = pinnedLookup('api.example', [
    { address: '93.184.216.34', family: 4 },
    { address: '2606:2800:220:1::1', family: 6 },
  ]);
  let outcome: Outcome | undefined;
  lookup(host, options, (err, address, family) => {
    outcome = { err, address, family };
  });
  if (!outcome) throw new Error('lookup did not answer synchronously');
  return outcome;
}

describe('pinnedLookup', () => {
  it('answers every vetted address when asked for all (happy eyeballs)', () => {
    expect(callLookup('api.example', { all: true }).address).toEqual([
      { address: '93.184.216.34', family: 4 },
      { address: '2606:2800:220:1::1', family: 6 },
    ]);
  });

  it('answers the first vetted address of the requested family', () => {
    expect(callLookup('api.example', {})).toMatchObject({ err: null, address: '93.184.216.34', family: 4 });
    expect(callLookup('api.example', { family: 6 })).toMatchObject({ address: '2606:2800:220:1::1', family: 6 });
    expect(callLookup('api.example', { family: 'IPv6' })).toMatchObject({ family: 6 });
  });

  it('refuses names it was not built for', () => {
    expect(callLookup('evil.example', {}).err).toMatchObject({ code: 'ENOTFOUND' });
  });
});
