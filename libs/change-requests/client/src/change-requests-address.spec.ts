import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { changeRequestsAddressSetting } from './change-requests-address';

describe('changeRequestsAddressSetting', () => {
  it("defaults to the port change-requests' manifest gives it", () => {
    const manifest = JSON.parse(readFileSync(join(__dirname, '../../../../apps/change-requests/service.json'), 'utf8')) as { port: number };
    expect(changeRequestsAddressSetting.CHANGE_REQUESTS_GRPC_URL.default).toBe(`127.0.0.1:${manifest.port}`);
  });
});
