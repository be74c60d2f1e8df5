import { describe, expect, it } from 'vitest';
import { cleanTitle, operatingModeLabel, parseTimeoutSeconds, sessionTitle } from './labels';

describe('operatingModeLabel', () => {
  it('names the known modes', () => {
    expect(operatingModeLabel('agent')).toBe('Agent');
    expect(operatingModeLabel('plan')).toBe('Plan');
    expect(operatingModeLabel('goal')).toBe('Goal');
  });
  it('defaults an empty mode to Agent and title-cases unknown ones', () => {
    expect(operatingModeLabel('')).toBe('Agent');
    expect(operatingModeLabel('review')).toBe('Review');
  });
});

describe('cleanTitle', () => {
  it('trims and rejects blank titles', () => {
    expect(cleanTitle('  Fix the build \n')).toBe('Fix the build');
    expect(cleanTitle('   ')).toBeNull();
  });
});

describe('sessionTitle', () => {
  it('falls back for a blank title', () => {
    expect(sessionTitle({ title: '' })).toBe('Untitled session');
    expect(sessionTitle({ title: ' Refactor ' })).toBe('Refactor');
  });
});

describe('parseTimeoutSeconds', () => {
  it.each([
    ['0', 0],
    ['120', 120],
    [' 86400 ', 86400],
    ['86401', null],
    ['-1', null],
    ['1.5', null],
    ['', null],
    ['abc', null],
  ])('%j → %j', (input, expected) => {
    expect(parseTimeoutSeconds(input)).toBe(expected);
  });
});
