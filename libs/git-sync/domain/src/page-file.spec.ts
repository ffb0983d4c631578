import { parse as parseYaml } from 'yaml';
import { frontmatterOf, mergePageFile, mergeText, pageFileText, PageFileFields } from './page-file';

/** What a repository holds, written by GitBook: front matter with cover, layout and a key of another tool; HTML the printer writes otherwise. */
const REPOSITORY = `---
description: >-
  Everything about the product.
cover: .gitbook/assets/cover.png
coverY: 0
layout:
  width: wide
  title:
    visible: true
  description:
    visible: false
custom-tool: keep me   # a comment
---

# Welcome

<h3 align="center">Getting started</h3>

* First item
* Second item

Last paragraph.
`;

/** The same page as export prints it (the Markdown printer's normalisations: headings, bullets, no unknown keys). */
const page = (over: Partial<PageFileFields> = {}): PageFileFields => ({
  title: 'Welcome',
  description: 'Everything about the product.',
  cover: { ref: { kind: 'file', file: 'f1' }, yPos: 0 },
  layout: { width: 'wide', description: false, title: true, outline: true },
  markdown: '### Getting started\n\n- First item\n- Second item\n\nLast paragraph.\n',
  ...over,
});
const printed = (p: PageFileFields) => ({ text: pageFileText(p, '.gitbook/assets/cover.png'), fields: frontmatterOf(p, '.gitbook/assets/cover.png') });

const changedLines = (before: string, after: string) => {
  const a = before.split('\n');
  const b = after.split('\n');
  return { removed: a.filter((l) => !b.includes(l)), added: b.filter((l) => !a.includes(l)) };
};

describe('a page file written back over the repository', () => {
  test('nothing changed: the repository text, byte for byte', () => {
    expect(mergePageFile(REPOSITORY, printed(page()), printed(page()))).toBe(REPOSITORY);
  });

  test('one sentence appended: exactly one line added, front matter, HTML and bullets as the repository had them', () => {
    const next = page({ markdown: '### Getting started\n\n- First item\n- Second item\n\nLast paragraph.\n\nOne more sentence.\n' });
    const merged = mergePageFile(REPOSITORY, printed(page()), printed(next));
    expect(merged).toBe(REPOSITORY + '\nOne more sentence.\n');
  });

  test('a file without a final newline: the edited last line, still without one', () => {
    const repository = '# Plain\n\n* One\n* Last line';
    const base = { title: 'Plain', markdown: '- One\n- Last line\n' };
    const merged = mergePageFile(repository, printed(base), printed({ ...base, markdown: '- One\n- Last line, longer\n' }));
    expect(merged).toBe('# Plain\n\n* One\n- Last line, longer');
  });

  test('an edited line in the middle: that line only', () => {
    const next = page({ markdown: '### Getting started\n\n- First item\n- Second item, edited\n\nLast paragraph.\n' });
    const merged = mergePageFile(REPOSITORY, printed(page()), printed(next));
    expect(changedLines(REPOSITORY, merged)).toEqual({ removed: ['* Second item'], added: ['- Second item, edited'] });
  });

  test('a field changed: its front matter line only; unknown keys, comments and the rest kept', () => {
    const next = page({ description: 'Now shorter.', hidden: true, layout: { width: 'wide', description: true } });
    const merged = mergePageFile(REPOSITORY, printed(page()), printed(next));
    expect(merged).toContain('custom-tool: keep me # a comment');
    expect(merged).toContain('cover: .gitbook/assets/cover.png\ncoverY: 0\n');
    const yaml = parseYaml(merged.split('---\n')[1]);
    expect(yaml).toMatchObject({ description: 'Now shorter.', hidden: true, 'custom-tool': 'keep me', layout: { width: 'wide', title: { visible: true } } });
    expect(yaml.layout.description).toBeUndefined();
    expect(merged.slice(merged.indexOf('# Welcome'))).toBe(REPOSITORY.slice(REPOSITORY.indexOf('# Welcome')));
  });

  test('a hidden page without front matter (a file SUMMARY.md does not list) gains none when its body is edited', () => {
    const repository = '# Draft\n\nText.\n';
    const base = { title: 'Draft', hidden: true, markdown: 'Text.\n' };
    expect(mergePageFile(repository, printed(base), printed({ ...base, markdown: 'Text, edited.\n' }))).toBe('# Draft\n\nText, edited.\n');
  });

  test('a page without front matter gains one when a field is set', () => {
    const repository = '# Plain\n\nText.\n';
    const base = { title: 'Plain', markdown: 'Text.\n' };
    const merged = mergePageFile(repository, printed(base), printed({ ...base, icon: 'rocket' }));
    expect(merged).toBe('---\nicon: rocket\n---\n\n# Plain\n\nText.\n');
  });

  test('front matter GitBook writes, printed from the page fields (layout as visible flags, only what differs)', () => {
    expect(pageFileText(page({ cover: { ref: { kind: 'url', url: 'https://example.com/c.png' }, yPos: -20, height: 300 }, layout: { width: 'default', pagination: false } }))).toBe(
      '---\ndescription: Everything about the product.\ncover: https://example.com/c.png\ncoverY: -20\ncoverHeight: 300\nlayout:\n  pagination:\n    visible: false\n---\n\n# Welcome\n\n### Getting started\n\n- First item\n- Second item\n\nLast paragraph.\n',
    );
  });

  test('SUMMARY.md: a new entry added, the repository’s own spelling kept elsewhere', () => {
    const repository = '# Summary\n\n* [Home](README.md)\n* [Guide](guide.md)\n';
    const base = '# Table of contents\n\n* [Home](README.md)\n* [Guide](guide.md)\n';
    const next = '# Table of contents\n\n* [Home](README.md)\n* [Guide](guide.md)\n* [New](new.md)\n';
    expect(mergeText(repository, base, next)).toBe('# Summary\n\n* [Home](README.md)\n* [Guide](guide.md)\n* [New](new.md)\n');
  });
});
