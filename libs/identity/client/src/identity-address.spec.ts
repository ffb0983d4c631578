import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { identityAddressSetting } from './identity-address';

describe('identityAddressSetting', () => {
  it("defaults to the port identity's manifest gives it", () => {
    const manifest = JSON.parse(readFileSync(join(__dirname, '../../../../apps/identity/service.json'), 'utf8')) as { port: number };
    expect(identityAddressSetting.IDENTITY_GRPC_URL.default).toBe(`127.0.0.1:${manifest.port}`);
  });
});
