import { compileValidators, unsafeTextAt, validateRequest } from './request-validation';
import { RouteSpec } from './route-registry';
import { LIST_QUERY, TEXT_PATTERN, trimmedText, withTextRule } from './schemas';

describe('text that cannot be stored faithfully', () => {
  it('finds NUL characters and lone surrogates at any depth, keys included, and nothing in proper text', () => {
    expect(unsafeTextAt({ title: 'Caf\u00e9 \u{1F600} \u4e2d\u6587' }, 'body')).toBeUndefined();
    expect(unsafeTextAt({ title: 'a\u0000b' }, 'body')).toBe('body.title');
    expect(unsafeTextAt({ list: ['ok', 'x\uD800'] }, 'body')).toBe('body.list.1');
    expect(unsafeTextAt({ deep: { v: '\uDC00y' } }, 'body')).toBe('body.deep.v');
    expect(unsafeTextAt({ ['k\u0000']: 1 }, 'body')).toBe('body (a field name)');
    expect(unsafeTextAt({ q: 'z\uDBFF' }, 'query')).toBe('query.q');
  });

  it('refuses them with a 400 naming the field, before the schema', () => {
    const route = { body: { type: 'object', properties: { title: { type: 'string' } }, additionalProperties: false } } as unknown as RouteSpec;
    const v = compileValidators(route);
    const call = (body: unknown) => () => validateRequest(v, { params: {}, query: {}, body, hasBody: true });
    expect(call({ title: 'fine' })).not.toThrow();
    expect(call({ title: 'bad\u0000' })).toThrow(expect.objectContaining({ kind: 'invalid', message: expect.stringContaining('body.title contains a NUL character') }));
    expect(call({ title: '\uD83D' })).toThrow(expect.objectContaining({ kind: 'invalid' }));
  });
});

describe('list parameters', () => {
  const v = compileValidators({ query: LIST_QUERY } as unknown as RouteSpec);
  const call = (query: Record<string, unknown>) => () => validateRequest(v, { params: {}, query, body: undefined, hasBody: false });

  it('accepts what the lists accept: cursors of their form, limit 0 (the default) to 1000', () => {
    for (const query of [{}, { page: 'c1.YWJj' }, { page: 'c1.YWJj.sMjAyNA' }, { limit: '0' }, { limit: '1000' }, { page: 'c1.A', limit: '1' }]) expect(call(query)).not.toThrow();
  });

  it('refuses anything else with a message saying what a page is', () => {
    expect(call({ page: '0' })).toThrow(
      expect.objectContaining({ kind: 'invalid', message: 'query.page must be the cursor of a page of this list, as its previous page gave it in next.page' }),
    );
    for (const limit of ['-1', '1001', '2.5', 'ten'])
      expect(call({ limit })).toThrow(expect.objectContaining({ kind: 'invalid', message: expect.stringContaining('query.limit') }));
  });
});

describe('text rules in the schemas', () => {
  const refuses = (schema: Record<string, unknown>, value: string) => {
    const v = compileValidators({ body: { type: 'object', properties: { x: schema } } } as unknown as RouteSpec);
    try {
      // unsafeTextAt would answer first: test the schema alone
      return !v.body!({ x: value });
    } catch {
      return true;
    }
  };

  it('adds TEXT_PATTERN to free strings at any depth, and leaves stricter ones alone', () => {
    const schema = withTextRule({
      type: 'object',
      properties: {
        a: { type: 'string' },
        b: { type: 'array', items: { type: 'string', maxLength: 3 } },
        c: { anyOf: [{ type: 'string' }, { type: 'null' }] },
        d: { type: 'string', format: 'email' },
        e: { type: 'string', enum: ['x'] },
      },
      additionalProperties: { type: 'string' },
      propertyNames: { type: 'string' },
    }) as any; // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(schema.properties.a.pattern).toBe(TEXT_PATTERN);
    expect(schema.properties.b.items).toEqual({ type: 'string', maxLength: 3, pattern: TEXT_PATTERN });
    expect(schema.properties.c.anyOf[0].pattern).toBe(TEXT_PATTERN);
    expect(schema.properties.d.pattern).toBeUndefined();
    expect(schema.properties.e.pattern).toBeUndefined();
    expect(schema.additionalProperties.pattern).toBe(TEXT_PATTERN);
    expect(schema.propertyNames.pattern).toBe(TEXT_PATTERN);
    const text = { type: 'string', pattern: TEXT_PATTERN };
    expect(refuses(text, 'Café \u{1F600} \n ok')).toBe(false);
    expect(refuses(text, 'a\u0000')).toBe(true);
  });

  it("says that field names hold no NUL either: every object's names, and free-form JSON at any depth", () => {
    const schema = withTextRule({
      type: 'object',
      additionalProperties: false,
      properties: { document: { type: 'object', properties: { nodes: { type: 'array', items: { type: 'object' } }, data: { type: 'object' } } }, tags: { type: 'array' } },
    });
    const v = compileValidators({ body: schema } as unknown as RouteSpec);
    const schemaAccepts = (body: unknown) => v.body!(body);
    expect(schemaAccepts({ document: { data: { a: [{ b: { c: 'd' } }] }, nodes: [{ object: 'block', nested: { x: [1, null, true] } }] }, tags: ['t'] })).toBe(true);
    expect(schemaAccepts({ document: { nodes: [{ ['k\u0000']: 1 }] } })).toBe(false);
    expect(schemaAccepts({ document: { data: { a: [{ b: { ['\u0000']: 'd' } }] } } })).toBe(false);
    expect(schemaAccepts({ document: { data: { a: ['x\u0000'] } } })).toBe(false);
    expect(schemaAccepts({ tags: [{ ['\u0000']: 1 }] })).toBe(false);
    expect(schemaAccepts({ ['\u0000']: 1 })).toBe(false);
  });

  it('says what trimming leaves: trimmedText(min, max)', () => {
    const two = trimmedText(2, 5);
    for (const ok of ['ab', ' a b ', '\u00A0ab\u3000', 'a\u{1F600}', '\u{1F600}\u{1F600}\u{1F600}\u{1F600}\u{1F600}'])
      expect({ ok, refused: refuses(two, ok) }).toEqual({ ok, refused: false });
    for (const bad of ['a', '  ', ' a  ', '\uFEFFa\uFEFF', 'a\u0000b', 'abcdef']) expect({ bad, refused: refuses(two, bad) }).toEqual({ bad, refused: true });
    const one = trimmedText(1, 3);
    expect(refuses(one, ' a ')).toBe(false);
    expect(refuses(one, '\t\n')).toBe(true);
    // The same as String.prototype.trim: what the schema accepts trims to min..max characters.
    for (const ok of ['ab', ' a b ', '\u00A0ab\u3000']) expect([...ok.trim()].length).toBeGreaterThanOrEqual(2);
  });
});
