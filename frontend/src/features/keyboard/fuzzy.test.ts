import { describe, expect, it } from 'vitest';
import { fuzzyFilter, fuzzyScore } from './fuzzy';

describe('fuzzy', () => {
  it.each([
    ['', 'anything', true],
    ['nses', 'New session', true],
    ['NEW', 'new session', true],
    ['tgl act', 'Toggle Activity', true],
    ['sx', 'Settings', false],
    ['settingsx', 'Settings', false],
  ])('%j matches %j: %s', (q, text, want) => {
    expect(fuzzyScore(q, text) !== null).toBe(want);
  });

  it('ranks a prefix above a substring above scattered letters', () => {
    const items = ['Show archived sessions', 'Theme: Dark', 'Settings', 'Next session'];
    expect(fuzzyFilter(items, 'se', (s) => s)).toEqual(['Settings', 'Next session', 'Show archived sessions']);
  });

  it('keeps the order of equal scores and everything for an empty query', () => {
    const items = ['b one', 'a one'];
    expect(fuzzyFilter(items, 'one', (s) => s)).toEqual(['b one', 'a one']);
    expect(fuzzyFilter(items, '  ', (s) => s)).toEqual(items);
  });
});
