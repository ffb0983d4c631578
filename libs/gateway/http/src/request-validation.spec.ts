import { compileValidators, unsafeTextAt, validateRequest } from './request-validation';
import { RouteSpec } from './route-registry';

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
