import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { HOSTED_SERVICES } from './hosted-services';

test('the monolith hosts every gRPC service of apps/*/service.json', () => {
  const apps = join(__dirname, '../..');
  const grpc = readdirSync(apps)
    .map((dir) => join(apps, dir, 'service.json'))
    .filter((file) => existsSync(file))
    .map((file) => JSON.parse(readFileSync(file, 'utf8')) as { name: string; kind: string })
    .filter((m) => m.kind === 'grpc')
    .map((m) => m.name)
    .sort();
  expect(HOSTED_SERVICES.map((s) => s.name).sort()).toEqual(grpc);
});
