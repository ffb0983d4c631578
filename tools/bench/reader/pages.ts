// The pages the reader's bench renders and searches: a 100-block page of the usual mix, and a site
// of 1,000 pages for search.
import type { DocumentBlock, DocumentNode, PageNode } from '@bindery/reader/render';
import type { FixtureSite, FixtureSpace } from '@bindery/reader/site';

export const text = (s: string): DocumentNode => ({ object: 'text', leaves: [{ object: 'leaf', text: s, marks: [] }] });
export const block = (type: string, data: Record<string, unknown>, nodes?: DocumentNode[], isVoid = false): DocumentBlock =>
  ({ object: 'block', type, data, ...(nodes ? { nodes } : {}), ...(isVoid ? { isVoid: true, nodes: [] } : {}) }) as DocumentBlock;

/** 100 top-level blocks of the usual mix: paragraphs, headings, lists, hints, code, tables of text. */
export function hundredBlocks(round: number): DocumentBlock[] {
  const out: DocumentBlock[] = [];
  for (let i = 0; out.length < 100; i++) {
    const kind = i % 10;
    if (kind === 0) out.push(block('heading-1', {}, [text(`Section ${i} of round ${round}`)]));
    else if (kind === 5) out.push(block('heading-2', {}, [text(`Part ${i}`)]));
    else if (kind === 3)
      out.push(
        block(
          'list-unordered',
          {},
          [1, 2, 3].map((n) => block('list-item', {}, [block('paragraph', {}, [text(`Item ${n} of list ${i}`)])])),
        ),
      );
    else if (kind === 7) out.push(block('hint', { style: 'info' }, [block('paragraph', {}, [text(`A hint, number ${i}, with a sentence of text.`)])]));
    else if (kind === 8)
      out.push(
        block(
          'code',
          { syntax: 'javascript', title: `example-${i}.js` },
          ['const a = 1;', 'function f(x) {', '  return x * 2; // double', '}', 'console.log(f(a));'].map((l) => block('code-line', {}, [text(l)])),
        ),
      );
    else out.push(block('paragraph', {}, [text(`Paragraph ${i}: `.padEnd(240, 'lorem ipsum dolor sit amet '))]));
  }
  return out;
}

/** Words of the 1,000-page site; a page holds about 60 of them, the first ones more often. */
const WORDS = (
  'deploy cluster token webhook backup restore replica index query cache proxy storage bucket quota region ' +
  'schema migration rollback secret certificate domain gateway latency throughput shard partition consumer producer ' +
  'topic offset snapshot volume container image registry pipeline artifact release branch commit review merge ' +
  'tenant member role permission audit export import invoice billing plan usage alert metric trace span log'
).split(' ');

/** A deterministic sequence (the same site on every run). */
function sequence(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/**
 * Organization `acme-inc`'s site `thousand`: 20 chapters of 50 pages (a chapter page and 49 below it),
 * each page three paragraphs of the words above; `queries` mixes words found on most pages, on a few,
 * and pairs.
 */
export function thousandPageSite(): { site: FixtureSite; space: FixtureSpace; queries: string[]; pages: number } {
  const next = sequence(32);
  const word = () => WORDS[Math.floor(next() ** 2 * WORDS.length)];
  const sentence = (n: number) => Array.from({ length: n }, word).join(' ');
  const pages: PageNode[] = [];
  const documents: FixtureSpace['documents'] = {};
  const add = (id: string, title: string, path: string): PageNode => {
    documents[id] = { object: 'document', data: {}, nodes: [0, 1, 2].map(() => block('paragraph', {}, [text(`${sentence(20)}.`)])) };
    return { id, type: 'document', title, slug: path.split('/').pop(), path, pages: [] };
  };
  for (let c = 1; c <= 20; c++) {
    const chapter = add(`t-${c}`, `Chapter ${c}: ${word()} and ${word()}`, `chapter-${c}`);
    for (let n = 1; n < 50; n++) chapter.pages!.push(add(`t-${c}-${n}`, `${word()} ${word()} (${c}.${n})`, `chapter-${c}/topic-${n}`));
    pages.push(chapter);
  }
  const count = Object.keys(documents).length;
  return {
    site: {
      id: 'site-thousand',
      organizationId: 'org-acme',
      organization: 'acme-inc',
      title: 'Thousand',
      basename: 'thousand',
      visibility: 'public',
      published: true,
      siteSpaces: [{ id: 'ss-thousand', title: 'Thousand', path: '', spaceId: 'space-thousand', default: true }],
    },
    space: { id: 'space-thousand', revisionId: 'rev-thousand-1', pages, documents },
    queries: ['deploy', 'span log', 'certificate', 'token webhook', 'invoice', 'replica', 'metric trace', 'quota', 'Chapter 7', 'rollback secret'],
    pages: count,
  };
}
