import { describe, expect, it } from 'vitest';
import { BUILTIN_COMMANDS, filterSlash, parseSlash, slashEntries, slashQuery, wantsSkills } from './slash';

describe('slash', () => {
  it('slashQuery: the text after "/" up to the caret, on the first line only', () => {
    expect(slashQuery('/rev', 4)).toBe('rev');
    expect(slashQuery('/rev', 2)).toBe('r');
    expect(slashQuery('/', 1)).toBe('');
    expect(slashQuery('/mode a', 7)).toBe('mode a');
    expect(slashQuery('hello /x', 8)).toBeNull();
    expect(slashQuery('/x', 0)).toBeNull();
    expect(slashQuery('/a\nb', 4)).toBeNull();
  });

  it('filterSlash: prefix matches first, then names containing the query, case-insensitive', () => {
    const entries = slashEntries(
      [
        { name: 'review', description: 'r', argumentHint: '<file>' },
        { name: 'git:commit', description: 'c', argumentHint: '' },
      ],
      [{ name: 'pdf', description: 'p' }],
    );
    expect(filterSlash(entries, 'RE').map((e) => e.name)).toEqual(['review']);
    expect(filterSlash(entries, 'mode a').map((e) => e.name)).toEqual(['mode ask', 'mode accept-edits', 'mode auto']);
    expect(filterSlash(entries, 'com').map((e) => e.name)).toEqual(['compact', 'git:commit']);
    expect(filterSlash(entries, 'skill').map((e) => e.name)).toEqual(['skill:pdf']);
    expect(filterSlash(entries, 'zzz')).toEqual([]);
    expect(filterSlash(entries, '')).toHaveLength(BUILTIN_COMMANDS.length + 3);
  });

  it('slashEntries: a custom command with an argument hint completes; without one it runs on Enter', () => {
    const [review, commit] = slashEntries(
      [
        { name: 'review', description: '', argumentHint: '<file>' },
        { name: 'commit', description: '', argumentHint: '' },
      ],
      [],
    ).slice(BUILTIN_COMMANDS.length);
    expect(review).toMatchObject({ kind: 'custom', hint: '<file>', runsOnPick: false });
    expect(commit).toMatchObject({ kind: 'custom', runsOnPick: true });
  });

  it('parseSlash: a command name and its arguments; anything else is text', () => {
    expect(parseSlash('/review  src/a.go "b c" ')).toEqual({ name: 'review', args: 'src/a.go "b c"' });
    expect(parseSlash('/git:commit')).toEqual({ name: 'git:commit', args: '' });
    expect(parseSlash('/plan\nbuild it')).toEqual({ name: 'plan', args: 'build it' });
    expect(parseSlash('/usr/bin/env fails')).toBeNull();
    expect(parseSlash('hello /review')).toBeNull();
    expect(parseSlash('/')).toBeNull();
  });

  it('wantsSkills: a start of "skill:" or past it, case-insensitive; not the bare "/" nor other commands', () => {
    for (const q of ['s', 'sk', 'Skill', 'skill:', 'skill:pd']) expect(wantsSkills(q)).toBe(true);
    for (const q of ['', 'review', 'skills', 'new', 'x skill:']) expect(wantsSkills(q)).toBe(false);
  });
});
