import { importRunJson, withoutCredentials } from './import-run-routes';

describe('import runs as others see them', () => {
  it('leaves credentials of the crawled site out of the source and the pages', () => {
    expect(withoutCredentials('https://ada:s3cret@docs.example.com/guide?x=1')).toBe('https://docs.example.com/guide?x=1');
    expect(withoutCredentials('https://docs.example.com/')).toBe('https://docs.example.com/');
    const json = importRunJson(
      {
        id: 'r1',
        status: 'completed',
        inputJson: JSON.stringify({ spaceId: 's1', url: 'https://ada:s3cret@docs.example.com/' }),
        resultJson: JSON.stringify({ pages: [{ id: 'p1', sourceURL: 'https://ada:s3cret@docs.example.com/a' }] }),
        createdAt: '2026-01-01T00:00:00.000Z',
        updatedAt: '2026-01-01T00:00:00.000Z',
      } as never,
      'o1',
      { publicUrl: 'http://127.0.0.1:8080' } as never,
    );
    expect(JSON.stringify(json)).not.toContain('s3cret');
    expect(json.source.url).toBe('https://docs.example.com/');
  });
});
