import { OutboundAddressRefusedError, OutboundRedirectLimitError, OutboundSchemeRefusedError } from './outbound-errors';
import { isOutboundRefusal, outboundFailure } from './outbound-failure';
import { textWithinBudget } from './bounded-body';

describe('outbound failures, worded once', () => {
  const wording = { timeoutMs: 15000 };

  it('names the host at most, never the address it resolved to', () => {
    const f = outboundFailure(new OutboundAddressRefusedError('internal.example', '10.0.0.7'), 'The url', wording);
    expect(f).toEqual({ code: 'ADDRESS_REFUSED', message: 'The url was refused: host "internal.example" is a loopback, private or otherwise non-public address.' });
    expect(f.message).not.toContain('10.0.0.7');
  });

  it('says each refusal and failure with its code', () => {
    expect(outboundFailure(new OutboundSchemeRefusedError('ftp'), 'The url', wording).code).toBe('SCHEME_REFUSED');
    expect(outboundFailure(new OutboundRedirectLimitError('a.example', 5), 'The url', wording).message).toBe('The url redirected more than 5 times.');
    expect(outboundFailure(Object.assign(new Error('t'), { name: 'TimeoutError' }), 'the source URL', { timeoutMs: 400 }).message).toBe(
      'the source URL did not answer within 0.4 s.',
    );
    expect(outboundFailure(new TypeError('Invalid URL'), 'The url', wording).code).toBe('INVALID_URL');
    expect(outboundFailure(Object.assign(new Error('x'), { cause: { code: 'ECONNREFUSED' } }), 'The url', wording).message).toBe('The url could not be fetched (ECONNREFUSED).');
  });

  it('counts an abort as the timeout only when told to', () => {
    const abort = Object.assign(new Error('a'), { name: 'AbortError' });
    expect(outboundFailure(abort, 'The url', wording).code).toBe('FETCH_FAILED');
    expect(outboundFailure(abort, 'The url of file "a"', { timeoutMs: 300000, timedOut: 'deliver the file', abortIsTimeout: true }).message).toBe(
      'The url of file "a" did not deliver the file within 300 s.',
    );
  });

  it('tells refusals of the guard from other failures', () => {
    expect(isOutboundRefusal(new OutboundSchemeRefusedError('ftp'))).toBe(true);
    expect(isOutboundRefusal(new Error('ECONNRESET'))).toBe(false);
  });
});

describe('a body read within a shared budget', () => {
  it('reads what fits, counting it against the budget', async () => {
    const budget = { left: 10 };
    expect(await textWithinBudget(new Response('hello'), budget)).toBe('hello');
    expect(budget.left).toBe(5);
  });

  it('gives up once the budget is exceeded, or before reading when the declared length is larger', async () => {
    expect(await textWithinBudget(new Response('hello world'), { left: 4 })).toBeUndefined();
    const declared = new Response('hi', { headers: { 'content-length': '100' } });
    const budget = { left: 50 };
    expect(await textWithinBudget(declared, budget)).toBeUndefined();
    expect(budget.left).toBe(50);
  });
});
