import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { contentAddressSetting } from './content-address';

describe('contentAddressSetting', () => {
  it("defaults to the port content's manifest gives it", () => {
    const manifest = JSON.parse(readFileSync(join(__dirname, '../../../../apps/content/service.json'), 'utf8')) as { port: number };
    expect(contentAddressSetting.CONTENT_GRPC_URL.default).toBe(`127.0.0.1:${manifest.port}`);
  });
});
