import { compileValidators, RouteRegistry, validateRequest } from '@bindery/gateway/http';
import { UPDATE_CONTENT } from './change-request-schemas';

describe('the content changes schema', () => {
  const [route] = new RouteRegistry().add({
    method: 'post',
    path: '/changes',
    operationId: 'changes',
    summary: '',
    tags: [],
    body: UPDATE_CONTENT,
    success: { status: 200, description: '' },
    handler: async () => ({}),
  }).routes;
  const v = compileValidators(route);
  const refusal = (...changes: unknown[]) => {
    try {
      validateRequest(v, { params: {}, query: {}, body: { changes }, hasBody: true });
      return undefined;
    } catch (err) {
      return (err as Error).message;
    }
  };

  it('takes each operation with the fields content applies, revert_page included', () => {
    expect(
      refusal(
        { operation: 'insert_page', title: 'A', document: { markdown: 'x' }, into: 'p', at: 0, ref: 'r' },
        { operation: 'update_page', page: 'p', into: null, document: {} },
        { operation: 'delete_page', page: 'p' },
        { operation: 'revert_page', page: 'p', revision: 'r', block: ['k'] },
        {
          operation: 'insert_files',
          files: [
            { name: 'a', base64: 'AA', contentType: 'image/png' },
            { name: 'b', url: 'https://example.com/b.png' },
          ],
        },
      ),
    ).toBeUndefined();
  });

  it("says what content would refuse, naming only the operation's own fields", () => {
    expect(refusal({ operation: 'insert_page' })).toBe('body.changes.0.document is required');
    expect(refusal({ operation: 'update_page', title: 'x' })).toBe('body.changes.0.page is required');
    expect(refusal({ operation: 'update_page', page: 'p', title: '  ' })).toBe('body.changes.0.title must be a title, not only white space');
    expect(refusal({ operation: 'update_page', page: 'p', slug: 'a/b' })).toMatch(/slug must be a slug without/);
    expect(refusal({ operation: 'delete_page', page: 'p', title: 'x' })).toBe('body.changes.0 has an unknown field "title"');
    expect(refusal({ operation: 'insert_files', files: [{ name: 'a', base64: 'AA' }] })).toMatch(/contentType is required/);
    expect(refusal({ operation: 'insert_files', files: [{ name: 'a', base64: 'AA', contentType: 'x', url: 'https://e.com/a' }] })).toMatch(/unknown field/);
    expect(refusal({ operation: 'rename_page', page: 'p' })).toMatch(/operation must be one of/);
    expect(refusal({ operation: 'update_page', page: 'p', document: { document: { object: 'document', data: {}, nodes: [{ ['k\u0000']: 1 }] } } })).toMatch(/NUL/);
  });

  it('takes only documents of the official shape, naming the first node that is not', () => {
    const paragraph = { object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'x', marks: [] }] }] };
    expect(refusal({ operation: 'insert_page', title: 'A', document: { document: { object: 'document', data: {}, nodes: [paragraph] } } })).toBeUndefined();
    expect(refusal({ operation: 'insert_page', title: 'A', document: { document: { '': -6.9e16, 'M0u\u000f': null } } })).toMatch(
      /^body\.changes\.0\.document\.document\.object is required/,
    );
    const wrong = { object: 'document', data: {}, nodes: [paragraph, { ...paragraph, type: 'paragraf' }] };
    expect(refusal({ operation: 'update_page', page: 'p', document: { document: wrong } })).toMatch(
      /^body\.changes\.0\.document\.document\.nodes\.1\.type must be one of "paragraph", /,
    );
  });
});
