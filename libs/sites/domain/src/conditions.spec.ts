import { ConditionSyntaxError, evaluateCondition, parseCondition } from './conditions';

const visitor = {
  claims: {
    plan: 'pro',
    seats: 12,
    roles: ['admin', 'editor'],
    email: 'ada@example.com',
    nothing: null,
    unsigned: { isBeta: true, region: 'eu', score: '7' },
    nested: { deeper: { flag: false } },
  },
};

const holds = (text: string, v: object = visitor) => evaluateCondition(parseCondition(text), v);

describe('conditions: evaluation', () => {
  it.each([
    ['visitor.claims.unsigned.isBeta', true],
    ['!visitor.claims.unsigned.isBeta', false],
    ['visitor.claims.plan', true],
    ["visitor.claims.plan === 'pro'", true],
    ['visitor.claims.plan === "pro"', true],
    ["visitor.claims.plan !== 'pro'", false],
    ["visitor.claims.plan == 'free'", false],
    ["visitor.claims.plan != 'free'", true],
    ['visitor.claims.seats > 10', true],
    ['visitor.claims.seats >= 12', true],
    ['visitor.claims.seats < 12', false],
    ['visitor.claims.seats <= 12.5', true],
    ['visitor.claims.seats > -1', true],
    ['visitor.claims.unsigned.score == 7', true],
    ['visitor.claims.unsigned.score === 7', false],
    ["visitor.claims.unsigned.score > '10'", true],
    ['visitor.claims.nothing == undefined', true],
    ['visitor.claims.nothing === null', true],
    ['visitor.claims.nothing === undefined', false],
    ['visitor.claims.missing === undefined', true],
    ['visitor.claims.missing == null', true],
    ['visitor.claims.missing', false],
    ['visitor.claims.missing.deeper.still', false],
    ['!visitor.claims.missing.deeper', true],
    ['visitor.claims.missing > 1', false],
    ['visitor.claims.missing < 1', false],
    ["visitor.claims.roles.includes('admin')", true],
    ["visitor.claims.roles.includes('viewer')", false],
    ["visitor.claims.email.includes('@example.com')", true],
    ["visitor.claims.missing.includes('x')", false],
    ['visitor.claims.seats.includes(1)', false],
    ['visitor.claims.roles.length === 2', true],
    ["visitor.claims['plan'] === 'pro'", true],
    ["visitor.claims.roles[1] === 'editor'", true],
    ['visitor.claims.nested.deeper.flag', false],
    ['visitor.claims.nested.deeper.flag === false', true],
    ["visitor.claims.unsigned.isBeta && visitor.claims.plan === 'pro'", true],
    ["visitor.claims.unsigned.isBeta && visitor.claims.plan === 'free'", false],
    ["visitor.claims.plan === 'free' || visitor.claims.seats > 5", true],
    ["(visitor.claims.plan === 'free' || visitor.claims.seats > 5) && !visitor.claims.missing", true],
    ["visitor.claims.plan === 'free' || visitor.claims.seats > 5 && visitor.claims.missing", false],
    ['true', true],
    ['false', false],
    ['null', false],
    ['0', false],
    ['1', true],
    ["''", false],
    ["'x'", true],
    ["'it\\'s' === \"it's\"", true],
    ['!!visitor.claims.plan', true],
    ['visitor.claims.constructor', false],
    ['visitor.claims.__proto__', false],
    ['visitor.claims.toString', false],
    ['visitor.claims.roles.includes(visitor.claims.unsigned.missing)', false],
    ['visitor.claims.unsigned.isBeta == 1', true],
    ["'b' > 'a'", true],
    ['1e2 === 100', true],
  ])('%s → %s', (text, expected) => {
    expect(holds(text)).toBe(expected);
  });

  it('treats a visitor without claims as having none', () => {
    expect(holds('visitor.claims.plan', {})).toBe(false);
    expect(holds('!visitor.claims.unsigned.isBeta', {})).toBe(true);
    expect(holds('visitor.claims.unsigned.isBeta', { claims: 'not an object' })).toBe(false);
  });
});

describe('conditions: syntax errors say what and where', () => {
  it.each([
    ['', 'Condition: empty condition at 0'],
    ['   ', 'Condition: empty condition at 0'],
    ["(visitor.claims.plan === 'pro'))", "Condition: unexpected ')' at 31"],
    ['visitor.claims.plan ===', 'Condition: unexpected end of condition at 23'],
    ['(visitor.claims.plan', "Condition: unexpected end of condition, expected ')' at 20"],
    ["visitor.claims.plan = 'pro'", "Condition: unexpected character '=' at 20"],
    ['process.exit()', "Condition: unknown name 'process' (conditions read visitor.claims) at 0"],
    ['visitor.claims.plan.toUpperCase()', "Condition: unknown function 'toUpperCase' (only .includes(…) can be called) at 20"],
    ['visitor()', "Condition: unexpected '(' (only .includes(…) can be called) at 7"],
    ["visitor.claims.plan === 'pro", 'Condition: unterminated string at 24'],
    ['visitor.claims.', 'Condition: unexpected end of condition, expected a property name at 15'],
    ['visitor.claims.plan ? 1 : 2', "Condition: unexpected character '?' at 20"],
    ['visitor.claims.plan; 1', "Condition: unexpected character ';' at 19"],
    ['12abc', "Condition: unexpected character 'a' at 2"],
    ['visitor.claims.roles.includes(1, 2)', "Condition: unexpected ',', expected ')' at 31"],
    ['&& true', "Condition: unexpected '&&' at 0"],
  ])('%j → %s', (text, message) => {
    let error: unknown;
    try {
      parseCondition(text);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConditionSyntaxError);
    expect((error as ConditionSyntaxError).kind).toBe('invalid');
    expect((error as Error).message).toBe(message);
  });

  it('refuses nesting deeper than a condition needs, without exhausting the stack', () => {
    expect(() => parseCondition(`${'('.repeat(5000)}true${')'.repeat(5000)}`)).toThrow(/nested too deeply/);
    expect(() => parseCondition(`${'!'.repeat(5000)}true`)).toThrow(/nested too deeply/);
  });
});
