import { DomainError } from '@bindery/platform/errors';

/**
 * The condition language of sections and site spaces (and adaptive content): a JavaScript-like
 * expression over the visitor's claims, deciding whether an item is shown to a visitor, e.g.
 * `visitor.claims.unsigned.isBeta && visitor.claims.plan === 'pro'`.
 *
 * It is parsed by hand (recursive descent) and evaluated by walking the tree: nothing is ever handed
 * to `eval` or `Function`, and only `visitor` (with `.`/`[…]` member paths below it) can be named.
 * Supported: literals (true, false, null, undefined, numbers, 'strings', "strings"), `!`, unary `-`
 * on numbers, `&&`, `||`, `==`, `!=`, `===`, `!==`, `<`, `<=`, `>`, `>=`, parentheses and
 * `.includes(x)` on arrays and strings.
 */
export type ConditionNode =
  | { kind: 'literal'; value: string | number | boolean | null | undefined }
  | { kind: 'visitor' }
  | { kind: 'member'; object: ConditionNode; property: ConditionNode }
  | { kind: 'includes'; target: ConditionNode; argument: ConditionNode }
  | { kind: 'not'; operand: ConditionNode }
  | { kind: 'negate'; operand: ConditionNode }
  | { kind: 'logical'; operator: '&&' | '||'; left: ConditionNode; right: ConditionNode }
  | { kind: 'compare'; operator: CompareOperator; left: ConditionNode; right: ConditionNode };

export type CompareOperator = '==' | '!=' | '===' | '!==' | '<' | '<=' | '>' | '>=';

/** A condition that is not an expression of the language: 400, with where it went wrong (a 0-based offset). */
export class ConditionSyntaxError extends DomainError {
  constructor(
    what: string,
    readonly position: number,
  ) {
    super('invalid', `Condition: ${what} at ${position}`);
    this.name = 'ConditionSyntaxError';
  }
}

/** The visitor a condition is evaluated for: its claims (signed ones at the top, `unsigned` below). */
export interface ConditionVisitor {
  claims?: Record<string, unknown>;
}

type Token =
  | { type: 'number'; value: number; at: number }
  | { type: 'string'; value: string; at: number }
  | { type: 'name'; value: string; at: number }
  | { type: 'punct'; value: string; at: number }
  | { type: 'end'; at: number };

const PUNCTUATION = ['===', '!==', '==', '!=', '<=', '>=', '&&', '||', '<', '>', '!', '(', ')', '[', ']', '.', ',', '-'];
const NAME_START = /[A-Za-z_$]/;
const NAME_PART = /[A-Za-z0-9_$]/;
const DIGIT = /[0-9]/;
const ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', b: '\b', f: '\f', v: '\v', '0': '\0' };
/** deeper nesting than this is refused (a stack's worth of parentheses is no condition) */
const MAX_DEPTH = 64;

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (/\s/.test(c)) {
      i += 1;
      continue;
    }
    if (DIGIT.test(c) || (c === '.' && DIGIT.test(text[i + 1] ?? ''))) {
      const m = /^(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?/.exec(text.slice(i))!;
      if (NAME_PART.test(text[i + m[0].length] ?? '')) throw new ConditionSyntaxError(`unexpected character '${text[i + m[0].length]}'`, i + m[0].length);
      tokens.push({ type: 'number', value: Number(m[0]), at: i });
      i += m[0].length;
      continue;
    }
    if (c === "'" || c === '"') {
      const start = i;
      let value = '';
      i += 1;
      for (;;) {
        if (i >= text.length) throw new ConditionSyntaxError('unterminated string', start);
        const d = text[i];
        if (d === c) break;
        if (d === '\n') throw new ConditionSyntaxError('unterminated string', start);
        if (d === '\\') {
          const e = text[i + 1];
          if (e === undefined) throw new ConditionSyntaxError('unterminated string', start);
          value += ESCAPES[e] ?? e;
          i += 2;
          continue;
        }
        value += d;
        i += 1;
      }
      tokens.push({ type: 'string', value, at: start });
      i += 1;
      continue;
    }
    if (NAME_START.test(c)) {
      let j = i + 1;
      while (j < text.length && NAME_PART.test(text[j])) j += 1;
      tokens.push({ type: 'name', value: text.slice(i, j), at: i });
      i = j;
      continue;
    }
    const p = PUNCTUATION.find((x) => text.startsWith(x, i));
    if (!p) throw new ConditionSyntaxError(`unexpected character '${c}'`, i);
    tokens.push({ type: 'punct', value: p, at: i });
    i += p.length;
  }
  tokens.push({ type: 'end', at: text.length });
  return tokens;
}

const shown = (t: Token) => (t.type === 'end' ? 'end of condition' : t.type === 'string' ? 'string' : `'${t.value}'`);

class Parser {
  private i = 0;
  private depth = 0;
  constructor(private readonly tokens: Token[]) {}

  private get next(): Token {
    return this.tokens[this.i];
  }

  private is(value: string): boolean {
    const t = this.next;
    return t.type === 'punct' && t.value === value;
  }

  private expect(value: string): Token {
    if (!this.is(value)) throw new ConditionSyntaxError(`unexpected ${shown(this.next)}, expected '${value}'`, this.next.at);
    return this.tokens[this.i++];
  }

  parse(): ConditionNode {
    if (this.tokens.length === 1) throw new ConditionSyntaxError('empty condition', 0);
    const node = this.or();
    const rest = this.next;
    if (rest.type !== 'end') throw new ConditionSyntaxError(`unexpected ${shown(rest)}`, rest.at);
    return node;
  }

  private nested<T>(at: number, parse: () => T): T {
    if (++this.depth > MAX_DEPTH) throw new ConditionSyntaxError('nested too deeply', at);
    try {
      return parse();
    } finally {
      this.depth -= 1;
    }
  }

  private or(): ConditionNode {
    let left = this.and();
    while (this.is('||')) {
      this.i += 1;
      left = { kind: 'logical', operator: '||', left, right: this.and() };
    }
    return left;
  }

  private and(): ConditionNode {
    let left = this.equality();
    while (this.is('&&')) {
      this.i += 1;
      left = { kind: 'logical', operator: '&&', left, right: this.equality() };
    }
    return left;
  }

  private equality(): ConditionNode {
    let left = this.relational();
    while (['===', '!==', '==', '!='].some((o) => this.is(o))) {
      const operator = (this.tokens[this.i++] as { value: string }).value as CompareOperator;
      left = { kind: 'compare', operator, left, right: this.relational() };
    }
    return left;
  }

  private relational(): ConditionNode {
    let left = this.unary();
    while (['<=', '>=', '<', '>'].some((o) => this.is(o))) {
      const operator = (this.tokens[this.i++] as { value: string }).value as CompareOperator;
      left = { kind: 'compare', operator, left, right: this.unary() };
    }
    return left;
  }

  private unary(): ConditionNode {
    const at = this.next.at;
    if (this.is('!')) {
      this.i += 1;
      return this.nested(at, () => ({ kind: 'not', operand: this.unary() }));
    }
    if (this.is('-')) {
      this.i += 1;
      return this.nested(at, () => ({ kind: 'negate', operand: this.unary() }));
    }
    return this.postfix();
  }

  private postfix(): ConditionNode {
    let node = this.primary();
    for (;;) {
      if (this.is('.')) {
        this.i += 1;
        const name = this.next;
        if (name.type !== 'name') throw new ConditionSyntaxError(`unexpected ${shown(name)}, expected a property name`, name.at);
        this.i += 1;
        if (this.is('(')) {
          if (name.value !== 'includes') throw new ConditionSyntaxError(`unknown function '${name.value}' (only .includes(…) can be called)`, name.at);
          this.i += 1;
          const argument = this.nested(name.at, () => this.or());
          this.expect(')');
          node = { kind: 'includes', target: node, argument };
        } else {
          node = { kind: 'member', object: node, property: { kind: 'literal', value: name.value } };
        }
      } else if (this.is('[')) {
        const at = this.next.at;
        this.i += 1;
        const property = this.nested(at, () => this.or());
        this.expect(']');
        node = { kind: 'member', object: node, property };
      } else if (this.is('(')) {
        throw new ConditionSyntaxError("unexpected '(' (only .includes(…) can be called)", this.next.at);
      } else {
        return node;
      }
    }
  }

  private primary(): ConditionNode {
    const t = this.next;
    switch (t.type) {
      case 'number':
      case 'string':
        this.i += 1;
        return { kind: 'literal', value: t.value };
      case 'name': {
        this.i += 1;
        const literals: Record<string, ConditionNode> = {
          true: { kind: 'literal', value: true },
          false: { kind: 'literal', value: false },
          null: { kind: 'literal', value: null },
          undefined: { kind: 'literal', value: undefined },
        };
        if (Object.prototype.hasOwnProperty.call(literals, t.value)) return literals[t.value];
        if (t.value === 'visitor') return { kind: 'visitor' };
        throw new ConditionSyntaxError(`unknown name '${t.value}' (conditions read visitor.claims)`, t.at);
      }
      case 'punct':
        if (t.value === '(') {
          this.i += 1;
          const inner = this.nested(t.at, () => this.or());
          this.expect(')');
          return inner;
        }
        throw new ConditionSyntaxError(`unexpected '${t.value}'`, t.at);
      case 'end':
        throw new ConditionSyntaxError('unexpected end of condition', t.at);
    }
  }
}

/** The condition's syntax tree, or a ConditionSyntaxError (400) naming what is wrong and where. */
export function parseCondition(text: string): ConditionNode {
  return new Parser(tokenize(text)).parse();
}

/** Throws a ConditionSyntaxError (400) unless `text` is a condition. */
export function assertCondition(text: string): void {
  parseCondition(text);
}

type Value = unknown;

const isPlainObject = (v: Value): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A property the value itself holds (never one from a prototype): anything else is undefined. */
function memberOf(object: Value, property: Value): Value {
  if (Array.isArray(object)) {
    if (property === 'length') return object.length;
    const index = typeof property === 'number' ? property : typeof property === 'string' && /^\d+$/.test(property) ? Number(property) : NaN;
    return Number.isInteger(index) && index >= 0 && index < object.length ? object[index] : undefined;
  }
  if (typeof object === 'string') return property === 'length' ? object.length : undefined;
  if (!isPlainObject(object)) return undefined;
  const key = typeof property === 'string' || typeof property === 'number' ? String(property) : undefined;
  return key !== undefined && Object.prototype.hasOwnProperty.call(object, key) ? object[key] : undefined;
}

function truthy(v: Value): boolean {
  return Boolean(v);
}

/** A primitive as JavaScript's relational and loose-equality operators see it (objects: NaN). */
function toNumber(v: Value): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (v === null) return 0;
  if (typeof v === 'string') return v.trim() === '' ? 0 : Number(v);
  return NaN;
}

function looseEquals(a: Value, b: Value): boolean {
  if (a === b) return !(typeof a === 'number' && Number.isNaN(a));
  const nullish = (v: Value) => v === null || v === undefined;
  if (nullish(a) || nullish(b)) return nullish(a) && nullish(b);
  if (typeof a === 'object' || typeof b === 'object') return false;
  if (typeof a === typeof b) return false;
  return toNumber(a) === toNumber(b);
}

function relate(operator: '<' | '<=' | '>' | '>=', a: Value, b: Value): boolean {
  if (typeof a === 'string' && typeof b === 'string') {
    return operator === '<' ? a < b : operator === '<=' ? a <= b : operator === '>' ? a > b : a >= b;
  }
  const x = toNumber(a);
  const y = toNumber(b);
  if (Number.isNaN(x) || Number.isNaN(y)) return false;
  return operator === '<' ? x < y : operator === '<=' ? x <= y : operator === '>' ? x > y : x >= y;
}

const sameValueZero = (a: Value, b: Value) => a === b || (typeof a === 'number' && typeof b === 'number' && Number.isNaN(a) && Number.isNaN(b));

function evaluate(node: ConditionNode, visitor: ConditionVisitor): Value {
  switch (node.kind) {
    case 'literal':
      return node.value;
    case 'visitor':
      return { claims: isPlainObject(visitor.claims) ? visitor.claims : {} };
    case 'member':
      return memberOf(evaluate(node.object, visitor), evaluate(node.property, visitor));
    case 'includes': {
      const target = evaluate(node.target, visitor);
      const argument = evaluate(node.argument, visitor);
      if (Array.isArray(target)) return target.some((x) => sameValueZero(x, argument));
      if (typeof target === 'string') return target.includes(String(argument));
      return false;
    }
    case 'not':
      return !truthy(evaluate(node.operand, visitor));
    case 'negate':
      return -toNumber(evaluate(node.operand, visitor));
    case 'logical': {
      const left = evaluate(node.left, visitor);
      if (node.operator === '&&') return truthy(left) ? evaluate(node.right, visitor) : left;
      return truthy(left) ? left : evaluate(node.right, visitor);
    }
    case 'compare': {
      const a = evaluate(node.left, visitor);
      const b = evaluate(node.right, visitor);
      switch (node.operator) {
        case '===':
          return a === b;
        case '!==':
          return a !== b;
        case '==':
          return looseEquals(a, b);
        case '!=':
          return !looseEquals(a, b);
        default:
          return relate(node.operator, a, b);
      }
    }
  }
}

/**
 * Whether the condition holds for the visitor, as JavaScript would decide it for these operators:
 * a claim that is missing is undefined (a path through it stays undefined), and nothing throws.
 */
export function evaluateCondition(node: ConditionNode, visitor: ConditionVisitor): boolean {
  try {
    return truthy(evaluate(node, visitor));
  } catch {
    return false;
  }
}
