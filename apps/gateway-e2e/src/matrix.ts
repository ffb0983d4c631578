import { assertErrorBody, SystemUnderTest } from '@bindery/shared/testing';
import { organizationWithEveryRole, RoleName } from './fixtures';
import { Client, http } from './http-client';

/** The callers of every authorization matrix, in the order the expected statuses are written. */
export type Caller = RoleName | 'stranger' | 'badToken' | 'noToken';
export const CALLERS: Caller[] = ['admin', 'create', 'review', 'edit', 'comment', 'read', 'guest', 'stranger', 'badToken', 'noToken'];
export type { Client };

export interface MatrixRow<Ctx, W extends string = Caller> {
  name: string;
  call(client: Client, ctx: Ctx, who: W): Promise<{ status: number; body: unknown }>;
  /** expected status per caller, in the order of the callers list */
  expect: number[];
}

/** A client per caller: each role of `org`, another organization's admin, a bad token and none. */
export function callerClients(sut: SystemUnderTest, org: Awaited<ReturnType<typeof organizationWithEveryRole>>): Record<Caller, Client> {
  return {
    ...(Object.fromEntries(Object.entries(org.members).map(([role, user]) => [role, http(sut.baseUrl, user.token)])) as Record<RoleName, Client>),
    stranger: http(sut.baseUrl, org.stranger.token),
    badToken: http(sut.baseUrl, 'gb_api_this-token-was-never-issued'),
    noToken: http(sut.baseUrl),
  };
}

/** Runs every row as every caller; returns the mismatches (every failure must carry the error body). */
export async function matrixMismatches<Ctx, W extends string>(
  rows: Array<MatrixRow<Ctx, W>>,
  callers: readonly W[],
  clients: Record<W, Client>,
  ctx: Ctx,
  /** extra checks on every answer (e.g. that a refusal reveals no secret) */
  inspect: (res: { status: number; body: unknown }) => void = () => undefined,
): Promise<string[]> {
  const mismatches: string[] = [];
  for (const row of rows) {
    if (row.expect.length !== callers.length) throw new Error(`${row.name}: ${row.expect.length} statuses for ${callers.length} callers`);
    for (const [i, who] of callers.entries()) {
      const res = await row.call(clients[who], ctx, who);
      if (res.status !== row.expect[i]) mismatches.push(`${row.name} as ${who}: expected ${row.expect[i]}, got ${res.status} ${JSON.stringify(res.body)}`);
      if (res.status >= 400) assertErrorBody(res.status, res.body);
      inspect(res);
    }
  }
  return mismatches;
}
