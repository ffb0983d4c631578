// The figures the fuzzer prints at the end of a run, from Schemathesis's NDJSON report (tools/fuzz/run-figures.js).
import { join } from 'node:path';

interface Figures {
  checks: Map<string, { passed: number; failed: number; operations: Set<string> }>;
  phases: Map<string, number>;
  statuses: Record<string, number>;
  cases: number;
  operations: number;
  errors: Array<{ label: string; phase: string; message: string }>;
  only404: string[];
  withPositive: number;
  durationS: number;
}
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { runFigures } = require(join(__dirname, '../fuzz/run-figures')) as { runFigures(text: string): Figures };

/** One scenario of one operation: its cases (mode, answered status) and the checks of each. */
function scenario(label: string, phase: string, cases: Array<{ mode: string; status: number; failed?: string[] }>) {
  const recorder = { label, cases: {} as Record<string, unknown>, checks: {} as Record<string, unknown>, interactions: {} as Record<string, unknown> };
  cases.forEach((c, i) => {
    recorder.cases[`c${i}`] = { value: { meta: { generation: { mode: c.mode } } } };
    recorder.interactions[`c${i}`] = { response: { status_code: c.status } };
    recorder.checks[`c${i}`] = ['not_a_server_error', 'response_schema_conformance', 'positive_data_acceptance'].map((name) => ({
      name,
      status: c.failed?.includes(name) ? 'failure' : 'success',
    }));
  });
  return { ScenarioFinished: { timestamp: 100, phase, recorder } };
}

const report = [
  { Initialize: { timestamp: 40 } },
  { ScenarioStarted: { timestamp: 41 } },
  // no cases: an operation skipped in a phase
  { ScenarioFinished: { timestamp: 42, phase: 'examples', recorder: { label: 'GET /skipped' } } },
  scenario('GET /spaces/{spaceId}', 'coverage', [
    { mode: 'positive', status: 200 },
    { mode: 'negative', status: 400 },
  ]),
  scenario('GET /spaces/{spaceId}', 'fuzzing', [{ mode: 'positive', status: 500, failed: ['not_a_server_error'] }]),
  scenario('POST /files/{fileId}', 'fuzzing', [
    { mode: 'positive', status: 404 },
    { mode: 'negative', status: 400 },
  ]),
  // a stateful scenario: its cases name their operations
  {
    ScenarioFinished: {
      timestamp: 110,
      phase: 'stateful',
      recorder: {
        label: 'Stateful tests',
        cases: { s0: { value: { method: 'POST', path: '/spaces', meta: { generation: { mode: 'positive' } } } } },
        checks: { s0: [{ name: 'use_after_free', status: 'failure' }] },
        interactions: { s0: { response: { status_code: 201 } } },
      },
    },
  },
  { NonFatalError: { timestamp: 120, label: 'POST /slow', phase: 'fuzzing', value: { type: 'RequestTimeout', message: 'Read timed out. (read timeout=30.0)' } } },
  { EngineFinished: { timestamp: 130, running_time: 88.5 } },
]
  .map((e) => JSON.stringify(e))
  .join('\n');

describe('the figures of a fuzz run', () => {
  test('count test cases by phase and answers by status class, check failures with their operations, and errors by operation', () => {
    const f = runFigures(report);
    expect(f.operations).toBe(3);
    expect(f.cases).toBe(6);
    expect([...f.phases]).toEqual([
      ['coverage', 2],
      ['fuzzing', 3],
      ['stateful', 1],
    ]);
    expect(f.statuses).toEqual({ '2xx': 2, '3xx': 0, '4xx': 3, '5xx': 1 });
    expect(f.checks.get('use_after_free')).toEqual({ passed: 0, failed: 1, operations: new Set(['POST /spaces']) });
    expect(f.checks.get('not_a_server_error')).toEqual({ passed: 4, failed: 1, operations: new Set(['GET /spaces/{spaceId}']) });
    expect(f.errors).toEqual([{ label: 'POST /slow', phase: 'fuzzing', message: 'RequestTimeout: Read timed out. (read timeout=30.0)' }]);
    expect(f.durationS).toBe(88.5);
  });

  test('an operation is "only ever 404" when every schema-valid test case of it was answered 404', () => {
    const f = runFigures(report);
    expect(f.only404).toEqual(['POST /files/{fileId}']);
    expect(f.withPositive).toBe(3);
  });
});
