const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

function startOfDay(ms: number): number {
  const d = new Date(ms);
  d.setHours(0, 0, 0, 0);
  return d.getTime();
}

/**
 * Compact relative time for list rows: "just now", "5m", "3h", "Yesterday", "4d",
 * "Mar 3", "Mar 3, 2023". Times in the future (clock skew) read as "just now".
 * Returns "" for a missing timestamp (0 or negative).
 */
export function formatRelativeTime(ms: number, now: number): string {
  if (!Number.isFinite(ms) || ms <= 0) return '';
  const diff = now - ms;
  if (diff < 45_000) return 'just now';
  if (diff < HOUR) return `${Math.max(1, Math.round(diff / MINUTE))}m`;
  const days = Math.round((startOfDay(now) - startOfDay(ms)) / DAY);
  if (days === 0) return `${Math.floor(diff / HOUR)}h`;
  if (days === 1) return 'Yesterday';
  if (days < 7) return `${days}d`;
  const d = new Date(ms);
  const label = `${MONTHS[d.getMonth()]} ${d.getDate()}`;
  return d.getFullYear() === new Date(now).getFullYear() ? label : `${label}, ${d.getFullYear()}`;
}

/** Full local date and time for tooltips, e.g. "2024-03-05 14:07". */
export function formatDateTime(ms: number): string {
  if (!Number.isFinite(ms) || ms <= 0) return '';
  const d = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}
