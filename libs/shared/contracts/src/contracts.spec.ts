import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

// The generated code must match the .proto files: regenerate into a temporary folder and compare.
describe('generated contracts', () => {
  it('are up to date with proto/ (run npm run proto:gen after changing a .proto)', () => {
    const root = join(__dirname, '../../../..');
    const out = execFileSync(process.execPath, [join(root, 'tools/proto/generate.js'), '--check'], { cwd: root, encoding: 'utf8' });
    expect(out).toContain('generated contracts are up to date');
  });
});
