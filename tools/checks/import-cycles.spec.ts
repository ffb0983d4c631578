import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { importCycles } = require('./import-cycles.js') as { importCycles: (dirs?: string[]) => string[][] };

describe('import cycles', () => {
  it('libs/ has none, type-only imports included (node tools/checks/import-cycles.js prints them)', () => {
    expect(importCycles()).toEqual([]);
  });

  it('finds a cycle through relative imports, index files and type-only imports', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cycles-'));
    try {
      mkdirSync(join(dir, 'b'));
      writeFileSync(join(dir, 'a.ts'), "import { b } from './b';\nexport const a = b;\n");
      writeFileSync(join(dir, 'b', 'index.ts'), "export * from './b';\n");
      writeFileSync(join(dir, 'b', 'b.ts'), "import type { C } from '../c';\nexport const b = 1 as C;\n");
      writeFileSync(join(dir, 'c.ts'), "import { a } from './a';\nexport type C = typeof a;\n");
      writeFileSync(join(dir, 'leaf.ts'), "import { a } from './a';\nexport const leaf = a;\n");
      const found = importCycles([dir]);
      expect(found).toHaveLength(1);
      const root = join(__dirname, '../..');
      expect(found[0].map((f) => relative(dir, resolve(root, f)))).toEqual(['a.ts', 'b/b.ts', 'b/index.ts', 'c.ts']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
