import { describe, expect, it } from 'vitest';
import { toolResult } from '../bridge/normalize';
import { clip, formatDuration, isExternal, toolTarget } from './tools';

describe('toolTarget', () => {
  it('escapes control and bidi characters in a path, never in a command', () => {
    expect(toolTarget('Read', { path: 'a\n[x.txt#ABCD] b' }, '', null)).toBe('a\\n[x.txt#ABCD] b');
    expect(toolTarget('Grep', { pattern: 'x', path: 'd\u202ef' }, '', null)).toBe('x in d\\u202ef');
    expect(toolTarget('Bash', { command: 'printf "a\tb"' }, '', null)).toBe('printf "a\tb"');
  });
  it('shows the command of Bash, the pattern of searches and the path otherwise', () => {
    expect(toolTarget('Bash', { command: 'go test ./...' }, '', null)).toBe('go test ./...');
    expect(toolTarget('Grep', { pattern: 'TODO', path: 'src' }, '', null)).toBe('TODO in src');
    expect(toolTarget('Read', { path: 'a.ts' }, '', null)).toBe('a.ts');
    expect(toolTarget('Read', { path: 'a.ts' }, '', toolResult({ ok: true, path: 'src/a.ts' }))).toBe('src/a.ts');
  });
  it('reads a path out of arguments that are still streaming', () => {
    expect(toolTarget('Write', null, '{"path":"src/new file.ts","content":"x', null)).toBe('src/new file.ts');
    expect(toolTarget('Bash', null, '{"command":"echo \\"hi\\"', null)).toBe('echo "hi"');
    expect(toolTarget('Write', null, '{"pa', null)).toBe('');
  });
});

describe('formatDuration', () => {
  it.each([
    [0, '0 ms'],
    [120, '120 ms'],
    [4_210, '4.2 s'],
    [42_000, '42 s'],
    [185_000, '3m 05s'],
    [-1, ''],
  ])('%d → %s', (ms, out) => expect(formatDuration(ms)).toBe(out));
});

describe('clip and isExternal', () => {
  it('clips with a count', () => {
    expect(clip('abcdef', 4)).toEqual({ text: 'abcd', clipped: 2 });
    expect(clip('ab', 4)).toEqual({ text: 'ab', clipped: 0 });
  });
  it('marks external results', () => {
    expect(isExternal(toolResult({ ok: true, root: 'external' }))).toBe(true);
    expect(isExternal(toolResult({ ok: true, root: 'workspace' }))).toBe(false);
    expect(isExternal(null)).toBe(false);
  });
});
