import { describe, expect, it } from 'vitest';
import { activeMention, insertMention, insertMentionAt, mentionText } from './mentions';

/** "|" marks the caret. */
function at(s: string) {
  const caret = s.indexOf('|');
  return { text: s.replace('|', ''), caret };
}

describe('activeMention', () => {
  it.each([
    ['@|', { start: 0, end: 1, query: '' }],
    ['see @src/lo|', { start: 4, end: 11, query: 'src/lo' }],
    ['see @src/lo|gin.ts now', { start: 4, end: 17, query: 'src/lo' }],
    ['line\n@ma|', { start: 5, end: 8, query: 'ma' }],
    ['@"docs/my fi|', { start: 0, end: 12, query: 'docs/my fi' }],
    ['x @"docs/my fi|le.md" y', { start: 2, end: 20, query: 'docs/my fi' }],
    ['say "hi" @a|', { start: 9, end: 11, query: 'a' }],
  ])('finds the reference in %j', (s, want) => {
    const { text, caret } = at(s);
    expect(activeMention(text, caret)).toEqual(want);
  });

  it.each([['no reference|'], ['mail ada@exa|'], ['@src/a.go |'], ['@"done" |'], ['(@x|'], ['@"a\nb|']])('none in %j', (s) => {
    const { text, caret } = at(s);
    expect(activeMention(text, caret)).toBeNull();
  });
});

describe('insertMention', () => {
  it('replaces the whole token and puts the caret after a space', () => {
    const { text, caret } = at('see @lo|gin please');
    const m = activeMention(text, caret)!;
    expect(insertMention(text, m, 'src/login.ts')).toEqual({ text: 'see @src/login.ts please', caret: 18 });
  });

  it('adds a space at the end and quotes a path with spaces', () => {
    const { text, caret } = at('read @my|');
    const m = activeMention(text, caret)!;
    const r = insertMention(text, m, 'docs/my notes.md');
    expect(r).toEqual({ text: 'read @"docs/my notes.md" ', caret: 25 });
    expect(mentionText('a.go')).toBe('@a.go');
  });
});

describe('insertMentionAt', () => {
  it.each([
    ['', 0, 'a.ts', '@a.ts ', 6],
    ['Look at', 7, 'a.ts', 'Look at @a.ts ', 14],
    ['Look at ', 8, 'a.ts', 'Look at @a.ts ', 14],
    ['Fix  please', 4, 'src/a.ts', 'Fix @src/a.ts please', 14],
    ['x', 99, 'my file.md', 'x @"my file.md" ', 16],
  ])('%j at %i with %s', (text, caret, path, want, wantCaret) => {
    expect(insertMentionAt(text, caret, path)).toEqual({ text: want, caret: wantCaret });
  });
});
