// What `npm start` does with a piece it finds (tools/stack/start-plan.js).
import { join } from 'node:path';

type Running = { pid: number; port?: number; build?: string; settings?: string } | undefined;
type Found = { running: Running; health: 'serving' | 'not-serving' | 'no-answer' | undefined; port: number; build: string; settings?: string };
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { decide } = require(join(__dirname, '../stack/start-plan')) as { decide(found: Found): { action: string; reason: string } };

const wanted = { port: 25051, build: 'b1' };
const running = { pid: 4242, port: 25051, build: 'b1' };

describe('the start plan of one piece', () => {
  test('a piece that is not running is started', () => {
    expect(decide({ ...wanted, running: undefined, health: undefined }).action).toBe('start');
  });

  test('a running piece that answers is left alone, even when a dependency of its is down', () => {
    expect(decide({ ...wanted, running, health: 'serving' })).toEqual({ action: 'keep', reason: 'running' });
    expect(decide({ ...wanted, running, health: 'not-serving' }).action).toBe('keep');
  });

  test('a running piece that does not answer is restarted', () => {
    expect(decide({ ...wanted, running, health: 'no-answer' })).toEqual({ action: 'restart', reason: 'it does not answer on port 25051' });
  });

  test('a running piece on another port or with other code is restarted', () => {
    expect(decide({ ...wanted, running: { ...running, port: 50051 }, health: 'serving' })).toEqual({ action: 'restart', reason: 'it listens on 50051, wanted 25051' });
    expect(decide({ ...wanted, running: { ...running, build: 'b0' }, health: 'serving' })).toEqual({ action: 'restart', reason: 'its code changed' });
  });

  test('a running piece started with other settings (BINDERY_ADMIN_TOKEN=… npm start) is restarted', () => {
    expect(decide({ ...wanted, settings: 's2', running: { ...running, settings: 's1' }, health: 'serving' })).toEqual({ action: 'restart', reason: 'its settings changed' });
    expect(decide({ ...wanted, settings: 's1', running: { ...running, settings: 's1' }, health: 'serving' }).action).toBe('keep');
  });

  test('a piece started before ports and builds were recorded is judged by its answer alone', () => {
    expect(decide({ ...wanted, running: { pid: 4242 }, health: 'serving' }).action).toBe('keep');
    expect(decide({ ...wanted, running: { pid: 4242 }, health: 'no-answer' }).action).toBe('restart');
  });
});
