import { promises as dnsPromises } from 'node:dns';
import { isIP } from 'node:net';
import { isForbiddenAddress, stripIpDecoration } from './address-policy';
import { OutboundAddressRefusedError } from './outbound-errors';

export interface ResolvedAddress {
  readonly address: string;
  readonly family: 4 | 6;
}

/** Name resolution as `safeFetch` sees it; injectable so tests can fake DNS. */
export type Resolver = (hostname: string) => Promise<ReadonlyArray<{ address: string; family: number }>>;

export const systemResolver: Resolver = (hostname) => dnsPromises.lookup(hostname, { all: true });

export interface VetOptions {
  readonly allowPrivate: boolean;
  readonly resolve: Resolver;
}

/**
 * Resolves `hostname` (a URL hostname, brackets allowed) once and returns the
 * addresses a connection may use. Every address is checked, not just the first:
 * the socket layer may try any of them (happy eyeballs), so one bad entry is
 * enough for a hostile DNS answer to reach an internal service.
 */
export async function vetHost(hostname: string, options: VetOptions): Promise<ResolvedAddress[]> {
  const bare = stripIpDecoration(hostname);
  const literalFamily = isIP(bare);
  const candidates = literalFamily === 0 ? await options.resolve(bare) : [{ address: bare, family: literalFamily }];

  if (candidates.length === 0) {
    throw Object.assign(new Error(`Host "${bare}" did not resolve to any address`), { code: 'ENOTFOUND' });
  }
  const vetted = candidates.map(({ address }) => {
    const family = isIP(address);
    // A resolver returning non-IP text would otherwise be handed to the socket layer verbatim.
    if (family !== 4 && family !== 6) throw new TypeError(`Resolver returned a non-IP answer for host "${bare}"`);
    return { address, family } as ResolvedAddress;
  });
  if (!options.allowPrivate) {
    const refused = vetted.find(({ address }) => isForbiddenAddress(address));
    if (refused) throw new OutboundAddressRefusedError(bare, refused.address);
  }
  return vetted;
}
