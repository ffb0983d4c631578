import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { importCycles, projectCycles, aliases } = require('./import-cycles.js') as {
  importCycles: (dirs?: string[]) => string[][];
  projectCycles: (dirs?: string[]) => string[][];
  aliases: () => (spec: string) => string | undefined;
};

describe('import cycles', () => {
  it('libs/ has none, type-only imports included (node tools/checks/import-cycles.js prints them)', () => {
    expect(importCycles()).toEqual([]);
  });

  it('follows workspace aliases through the wildcard of tsconfig.base.json (without it no import between libs was seen)', () => {
    const alias = aliases();
    expect(relative(join(__dirname, '../..'), alias('@bindery/platform/grpc')!)).toBe(join('libs', 'platform', 'grpc', 'src', 'index.ts'));
    expect(alias('node:fs')).toBeUndefined();
  });

  it("libs/' projects have none either", () => {
    expect(projectCycles()).toEqual([]);
  });

  it('finds a cycle between two projects that no cycle of files shows', () => {
    const dir = mkdtempSync(join(tmpdir(), 'project-cycles-'));
    try {
      for (const p of ['p', 'q', 'r']) {
        mkdirSync(join(dir, p));
        writeFileSync(join(dir, p, 'project.json'), '{}');
      }
      writeFileSync(join(dir, 'p', 'a.ts'), "import { b } from '../q/b';\nexport const a = b;\n");
      writeFileSync(join(dir, 'q', 'b.ts'), 'export const b = 1;\n');
      writeFileSync(join(dir, 'q', 'c.ts'), "import type { D } from '../p/d';\nexport const c = 1 as D;\n");
      writeFileSync(join(dir, 'p', 'd.ts'), 'export type D = number;\n');
      writeFileSync(join(dir, 'r', 'e.ts'), "import { a } from '../p/a';\nexport const e = a;\n");
      expect(importCycles([dir])).toEqual([]);
      const found = projectCycles([dir]);
      const root = join(__dirname, '../..');
      expect(found.map((c) => c.map((d) => relative(dir, resolve(root, d))))).toEqual([['p', 'q']]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
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
