import { describe, expect, it } from 'vitest';
import { formatDateTime, formatRelativeTime } from './time';

const now = new Date(2025, 5, 15, 12, 0, 0).getTime(); // Sun 15 Jun 2025, 12:00 local

describe('formatRelativeTime', () => {
  it.each([
    ['missing timestamp', 0, ''],
    ['a few seconds ago', now - 10_000, 'just now'],
    ['slightly in the future (clock skew)', now + 5_000, 'just now'],
    ['minutes', now - 5 * 60_000, '5m'],
    ['59 minutes', now - 59 * 60_000, '59m'],
    ['hours today', now - 3 * 3_600_000, '3h'],
    ['yesterday', new Date(2025, 5, 14, 20, 0).getTime(), 'Yesterday'],
    ['days this week', new Date(2025, 5, 11, 9, 0).getTime(), '4d'],
    ['earlier this year', new Date(2025, 2, 3, 9, 0).getTime(), 'Mar 3'],
    ['another year', new Date(2023, 10, 20, 9, 0).getTime(), 'Nov 20, 2023'],
  ])('%s', (_name, ms, expected) => {
    expect(formatRelativeTime(ms, now)).toBe(expected);
  });

  it('counts calendar days, not 24h blocks', () => {
    const lateYesterday = new Date(2025, 5, 14, 23, 30).getTime();
    const earlyToday = new Date(2025, 5, 15, 0, 30).getTime();
    const at = new Date(2025, 5, 15, 8, 0).getTime();
    expect(formatRelativeTime(lateYesterday, at)).toBe('Yesterday');
    expect(formatRelativeTime(earlyToday, at)).toBe('7h');
  });
});

describe('formatDateTime', () => {
  it('formats local date and time with zero padding', () => {
    expect(formatDateTime(new Date(2024, 2, 5, 4, 7).getTime())).toBe('2024-03-05 04:07');
  });
  it('is empty for a missing timestamp', () => {
    expect(formatDateTime(0)).toBe('');
  });
});
