import { assertMatchesSpec } from '@bindery/shared/testing';
import type { Json } from './content-model-fixtures';
import type { Client } from './http-client';

const NEW = '0.202.0';
export const RUNS = '/org/{organizationId}/imports';
export const RUN = `${RUNS}/{importRunId}`;

/** POST /v1/org/{org}/imports of a website into a space; expects 201, validated against 0.202.0. */
export async function startRun(client: Client, orgId: string, spaceId: string, url: string): Promise<Json> {
  const res = await client.post(`/v1/org/${orgId}/imports`, { source: { type: 'website', url }, target: { space: spaceId } });
  if (res.status !== 201) throw new Error(`start import run: ${res.status} ${JSON.stringify(res.body)}`);
  assertMatchesSpec(NEW, 'post', RUNS, 201, res.body);
  return res.body;
}

/** GET the run (200, validated against 0.202.0). */
export async function readRun(client: Client, orgId: string, runId: string): Promise<Json> {
  const res = await client.get(`/v1/org/${orgId}/imports/${runId}`);
  if (res.status !== 200) throw new Error(`get import run: ${res.status} ${JSON.stringify(res.body)}`);
  assertMatchesSpec(NEW, 'get', RUN, 200, res.body);
  return res.body;
}

/** Polls the run until `done` holds (no fixed sleep: it reads again as soon as an answer arrives, 50 ms apart). */
export async function runUntil(client: Client, orgId: string, runId: string, done: (run: Json) => boolean, timeoutMs = 60_000): Promise<Json> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const run = await readRun(client, orgId, runId);
    if (done(run)) return run;
    if (Date.now() > until) throw new Error(`import run ${runId} still ${run.status} after ${timeoutMs} ms: ${JSON.stringify(run)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export const finished = (run: Json) => ['completed', 'failed', 'cancelled'].includes(run.status as string);
