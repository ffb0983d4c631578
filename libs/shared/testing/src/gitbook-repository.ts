/**
 * A generated repository in GitBook's layout, for tests and benches of git sync: `.gitbook.yaml`, a
 * README.md, a SUMMARY.md with a group (`## Part n`) per 100 pages, a chapter (`partN/chapterM/README.md`)
 * per 10 pages and, in each chapter, pages of which the last few are nested under the fifth, and a few
 * binary assets under `.gitbook/assets/` that pages link to. Every page's Markdown has a title, a
 * paragraph, a list, a code block and a link.
 */
export interface GeneratedRepository {
  /** path → content (the assets as bytes) */
  files: Record<string, string | Buffer>;
  /** how many pages an import creates (the readme included) */
  pages: number;
}

const page = (title: string, n: number, asset: string | undefined) =>
  [
    `# ${title}`,
    '',
    `This is page ${n} of a generated book: a paragraph with **bold**, _emphasis_ and \`code\`.`,
    '',
    '* first point',
    '* second point',
    '',
    '```js',
    `console.log(${n});`,
    '```',
    '',
    asset ? `![An asset](${asset})` : `See [the start](/README.md).`,
    '',
  ].join('\n');

/** `pages` pages (the readme included); `assets` binary files; chapters under `dir` (default: the root). */
export function gitbookRepository(pages: number, { assets = 4, dir: base = '' } = {}): GeneratedRepository {
  const files: GeneratedRepository['files'] = {
    '.gitbook.yaml': 'root: ./\n\nstructure:\n  readme: README.md\n  summary: SUMMARY.md\n',
    'README.md': page('Welcome', 0, undefined),
  };
  const assetPaths = Array.from({ length: assets }, (_, i) => `.gitbook/assets/image-${i + 1}.png`);
  assetPaths.forEach((p, i) => (files[p] = Buffer.from(Array.from({ length: 2048 }, (_, b) => (b * 31 + i * 7) % 256))));
  const summary = ['# Table of contents', '', '* [Welcome](README.md)'];
  let made = 1;
  for (let part = 1; made < pages; part++) {
    summary.push('', `## Part ${part}`, '');
    for (let chapter = 1; chapter <= 10 && made < pages; chapter++) {
      const dir = `${base ? `${base}/` : ''}part${part}/chapter${chapter}`;
      files[`${dir}/README.md`] = page(`Chapter ${part}.${chapter}`, made, undefined);
      summary.push(`* [Chapter ${part}.${chapter}](${dir}/README.md)`);
      made++;
      for (let p = 1; p <= 9 && made < pages; p++) {
        const asset = assetPaths.length && made % 7 === 0 ? `${base ? '../' : ''}../../${assetPaths[made % assetPaths.length]}` : undefined;
        files[`${dir}/page${p}.md`] = page(`Page ${part}.${chapter}.${p}`, made, asset);
        summary.push(`${p > 5 ? '    ' : '  '}* [Page ${part}.${chapter}.${p}](${dir}/page${p}.md)`);
        made++;
      }
    }
  }
  files['SUMMARY.md'] = summary.join('\n') + '\n';
  return { files, pages: made };
}
