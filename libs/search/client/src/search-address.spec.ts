import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { searchAddressSetting } from './search-address';

describe('searchAddressSetting', () => {
  it("defaults to the port search's manifest gives it", () => {
    const manifest = JSON.parse(readFileSync(join(__dirname, '../../../../apps/search/service.json'), 'utf8')) as { port: number };
    expect(searchAddressSetting.SEARCH_GRPC_URL.default).toBe(`127.0.0.1:${manifest.port}`);
  });
});
