import { afterEach, describe, expect, it } from 'vitest';
import { readNumberPref, writeNumberPref } from './prefs';

afterEach(() => localStorage.clear());

describe('number prefs', () => {
  it('reads back what was written, rounded', () => {
    writeNumberPref('pane', 433.6);
    expect(readNumberPref('pane', 1)).toBe(434);
  });

  it.each([
    ['nothing stored', null],
    ['junk', 'wide'],
    ['empty', ''],
    ['infinity', 'Infinity'],
  ])('falls back when %s', (_name, stored) => {
    if (stored !== null) localStorage.setItem('pi-desktop.pane', stored);
    expect(readNumberPref('pane', 420)).toBe(420);
  });

  it('namespaces its keys', () => {
    writeNumberPref('pane', 500);
    expect(localStorage.getItem('pi-desktop.pane')).toBe('500');
    expect(localStorage.getItem('pane')).toBeNull();
  });
});
