import { describe, expect, it } from 'vitest';
import { reviewChange } from '../../test/fakeBridge';
import { groupByMessage, numberHunk } from './groups';

describe('groupByMessage', () => {
  it('keeps the order of first appearance and the order within a message', () => {
    const list = [
      reviewChange('a', 'a.ts', { messageId: 'm1' }),
      reviewChange('b', 'b.ts', { messageId: 'm2' }),
      reviewChange('c', 'c.ts', { messageId: 'm1' }),
      reviewChange('d', 'd.ts', { messageId: 'm3' }),
    ];
    expect(groupByMessage(list).map((g) => [g.ordinal, g.messageId, g.changes.map((c) => c.path)])).toEqual([
      [1, 'm1', ['a.ts', 'c.ts']],
      [2, 'm2', ['b.ts']],
      [3, 'm3', ['d.ts']],
    ]);
  });
});

describe('numberHunk', () => {
  it('numbers an insertion into an empty file and a deletion of a whole file', () => {
    expect(numberHunk({ oldStart: 0, oldLines: 0, newStart: 1, newLines: 2, lines: ['+a', '+b'] })).toEqual([
      { kind: 'add', oldNo: 0, newNo: 1, text: 'a' },
      { kind: 'add', oldNo: 0, newNo: 2, text: 'b' },
    ]);
    expect(numberHunk({ oldStart: 1, oldLines: 1, newStart: 0, newLines: 0, lines: ['-gone'] })).toEqual([{ kind: 'del', oldNo: 1, newNo: 0, text: 'gone' }]);
  });

  it('numbers a pure insertion after line 3 from line 4 on the new side', () => {
    expect(numberHunk({ oldStart: 3, oldLines: 0, newStart: 4, newLines: 1, lines: ['+x'] })).toEqual([{ kind: 'add', oldNo: 0, newNo: 4, text: 'x' }]);
    expect(numberHunk({ oldStart: 2, oldLines: 2, newStart: 2, newLines: 3, lines: [' c', '+x', ' d'] }).map((l) => [l.oldNo, l.newNo])).toEqual([
      [2, 2],
      [0, 3],
      [3, 4],
    ]);
  });
});
