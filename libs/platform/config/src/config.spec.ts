import { ConfigError, loadConfig, Schema } from './config';

const schema = {
  PORT: { kind: 'int', default: 8080, min: 1, max: 65535 },
  NAME: { kind: 'string' },
  FLAG: { kind: 'bool', default: false },
  TOKEN: { kind: 'string', optional: true, secret: true, min: 16 },
  BROKERS: { kind: 'list', default: ['a:1'] },
} as const satisfies Schema;

describe('loadConfig', () => {
  it('applies defaults and parses values', () => {
    const c = loadConfig(schema, { NAME: 'x', FLAG: 'true', BROKERS: 'h1:9092, h2:9092' });
    expect(c).toEqual({ PORT: 8080, NAME: 'x', FLAG: true, BROKERS: ['h1:9092', 'h2:9092'] });
  });

  it('reports every problem at once and never echoes a secret', () => {
    let error: unknown;
    try {
      loadConfig(schema, { PORT: '80x', FLAG: 'maybe', TOKEN: 'short-secret' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message).toContain('PORT must be a whole number');
    expect(message).toContain('NAME is required');
    expect(message).toContain('FLAG must be true or false');
    expect(message).toContain('TOKEN must have at least 16 characters');
    expect(message).not.toContain('short-secret');
  });

  it('enforces ranges', () => {
    expect(() => loadConfig(schema, { NAME: 'x', PORT: '70000' })).toThrow('PORT must be at most 65535');
  });
});
