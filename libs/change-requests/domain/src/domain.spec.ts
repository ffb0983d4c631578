import { assertContentWritable, assertEditable, checkStatus, checkSubject, statusEventOf } from './lifecycle';
import { bodyFromInput, bodyInFormat } from './comment-body';
import { EMOJI_MAX_LENGTH, EMOJI_PATTERN } from '@bindery/shared/text';
import { reactionsAfter } from './reactions';
import { assertMay, SpaceAccess } from './change-request-policy';
import { mergeBaseOf } from './records';

const T1 = '2026-01-01T00:00:01.000Z';
const T2 = '2026-01-01T00:00:02.000Z';

describe('reactions', () => {
  it('adds one reaction per user and emoji, removes them, drops emojis nobody uses', () => {
    let r = reactionsAfter([], 'u1', ['👍', '🎉'], [], T1);
    r = reactionsAfter(r, 'u2', ['👍'], [], T2);
    r = reactionsAfter(r, 'u1', ['👍'], [], T2);
    expect(r).toEqual([
      {
        emoji: '👍',
        users: [
          { user: 'u1', reactedAt: T1 },
          { user: 'u2', reactedAt: T2 },
        ],
      },
      { emoji: '🎉', users: [{ user: 'u1', reactedAt: T1 }] },
    ]);
    r = reactionsAfter(r, 'u1', [], ['🎉', '👍'], T2);
    expect(r).toEqual([{ emoji: '👍', users: [{ user: 'u2', reactedAt: T2 }] }]);
    // removing what is not there changes nothing; added and removed at once: removed wins
    expect(reactionsAfter(r, 'u3', ['x'], ['x', '👍'], T2)).toEqual(r);
  });

  it('takes what the served schema takes: up to 32 characters counted as code points, none of them white space', () => {
    const pattern = new RegExp(EMOJI_PATTERN);
    const astral = '👍'.repeat(EMOJI_MAX_LENGTH);
    expect(pattern.test(astral)).toBe(true);
    expect(reactionsAfter([], 'u1', [astral], [], T1)).toHaveLength(1);
    expect(() => reactionsAfter([], 'u1', [`${astral}👍`], [], T1)).toThrow(/not an emoji/);
    for (const space of ['\r', '\u00a0', '\ufeff', '\u2028', '\u3000']) {
      expect(pattern.test(`a${space}`)).toBe(false);
      expect(() => reactionsAfter([], 'u1', [`a${space}`], [], T1)).toThrow(/not an emoji/);
    }
    // what JavaScript does not call white space is an emoji both ways
    expect(pattern.test('\u0085')).toBe(true);
    expect(reactionsAfter([], 'u1', ['\u0085'], [], T1)).toHaveLength(1);
  });

  it('refuses what is not an emoji', () => {
    expect(() => reactionsAfter([], 'u1', ['a b'], [], T1)).toThrow(/not an emoji/);
    expect(() => reactionsAfter([], 'u1', [''], [], T1)).toThrow(/not an emoji/);
    expect(() =>
      reactionsAfter(
        [],
        'u1',
        Array.from({ length: 21 }, (_, i) => `e${i}`),
        [],
        T1,
      ),
    ).toThrow(/at most 20/);
  });
});

describe('comment bodies', () => {
  it('reads markdown, documents and the empty body, and answers the format asked', () => {
    const doc = bodyFromInput({ markdown: '# Title\n\nSome **bold** text.' });
    expect(doc.nodes.map((n) => (n as { type?: string }).type)).toEqual(['heading-1', 'paragraph']);
    expect(bodyInFormat(doc, 'markdown')).toEqual({ markdown: expect.stringContaining('Some **bold** text.') });
    // the content dialect writes a document's first heading level as `##` (`#` is a page's title)
    expect((bodyInFormat(doc, 'markdown').markdown as string).startsWith('## Title')).toBe(true);
    expect(bodyInFormat(doc, 'document')).toEqual({ document: doc });
    expect(bodyFromInput({})).toEqual({ object: 'document', data: {}, nodes: [] });
    expect(bodyFromInput({ document: doc })).toEqual(doc);
  });

  it('refuses anything else', () => {
    for (const bad of [
      [],
      null,
      'not an object',
      { text: 'x' },
      { document: { object: 'block' } },
      { markdown: 'x'.repeat(65537) },
      { document: { object: 'document', data: { x: 'y'.repeat(262144) }, nodes: [] } },
    ]) {
      expect(() => bodyFromInput(bad)).toThrow();
    }
  });
});

describe('lifecycle', () => {
  it('keeps merged change requests read-only and archived ones closed to content', () => {
    expect(() => assertContentWritable({ status: 'merged' })).toThrow(/merged/);
    expect(() => assertContentWritable({ status: 'archived' })).toThrow(/archived/);
    expect(() => assertContentWritable({ status: 'draft' })).not.toThrow();
    expect(() => assertEditable({ status: 'archived' })).not.toThrow();
    expect(() => assertEditable({ status: 'merged' })).toThrow(/merged/);
  });

  it('checks subjects and settable statuses, and names the event of a status change', () => {
    expect(checkSubject('  Hello  ')).toBe('Hello');
    expect(() => checkSubject('x'.repeat(101))).toThrow(/100/);
    expect(() => checkStatus('merged')).toThrow(/draft, open, archived/);
    expect(statusEventOf('open', 'archived')).toBe('archived');
    expect(statusEventOf('archived', 'archived')).toBe('updated');
    expect(statusEventOf('archived', 'open')).toBe('updated');
  });

  it('measures from the last update when there was one', () => {
    expect(mergeBaseOf({ revisionInitial: 'r1' })).toBe('r1');
    expect(mergeBaseOf({ revisionInitial: 'r1', revisionMergedAncestor: 'r5' })).toBe('r5');
  });
});

describe('who may do what', () => {
  const access = (can: Partial<SpaceAccess['can']>): SpaceAccess => ({
    organizationId: 'o',
    spaceId: 's',
    revision: 'r',
    can: { view: true, comment: false, edit: false, review: false, admin: false, ...can },
  });
  it('needs the role of each action (a locked space is refused by content, not here)', () => {
    expect(() => assertMay(access({ comment: true }), 'edit')).toThrow(/edit role/);
    expect(() => assertMay(access({ comment: true, edit: true }), 'edit')).not.toThrow();
    expect(() => assertMay(access({ edit: true }), 'merge')).toThrow(/review role/);
    expect(() => assertMay(access({ review: true }), 'merge')).not.toThrow();
  });
});
