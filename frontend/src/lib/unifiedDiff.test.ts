import { describe, expect, it } from 'vitest';
import { parseUnifiedDiff } from './unifiedDiff';

describe('parseUnifiedDiff', () => {
  it('reads hunks, keeping empty context rows and rows that look like markers', () => {
    const d = parseUnifiedDiff('@@ -1,3 +1,3 @@\n a\n-b\n+@@ -9,9 +9,9 @@\n \n@@ -10,0 +11,1 @@\n+[diff truncated: 3 more lines]\n');
    expect(d.truncated).toBe(false);
    expect(d.hunks).toEqual([
      { oldStart: 1, oldLines: 3, newStart: 1, newLines: 3, lines: [' a', '-b', '+@@ -9,9 +9,9 @@', ' '] },
      { oldStart: 10, oldLines: 0, newStart: 11, newLines: 1, lines: ['+[diff truncated: 3 more lines]'] },
    ]);
  });
  it('reads the truncation marker', () => {
    const d = parseUnifiedDiff('@@ -0,0 +1,2 @@\n+a\n+b\n[diff truncated: 4800 more lines]\n');
    expect(d).toMatchObject({ truncated: true, omitted: 4800 });
    expect(d.hunks[0].lines).toEqual(['+a', '+b']);
  });
  it('returns nothing for an empty or foreign text', () => {
    expect(parseUnifiedDiff('')).toEqual({ hunks: [], omitted: 0, truncated: false });
    expect(parseUnifiedDiff('not a diff\n+x')).toEqual({ hunks: [], omitted: 0, truncated: false });
  });
});
