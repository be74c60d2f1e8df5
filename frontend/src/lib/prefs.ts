// Window preferences that belong to this machine's window rather than to the user's
// settings (a pane's width): kept in localStorage, read tolerantly, never thrown.

/** Every key is namespaced so a preference never collides with another page's storage. */
const PREFIX = 'pi-desktop.';

function storage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    // Storage can be disabled (privacy settings): the window still works, unremembered.
    return null;
  }
}

/** A stored finite number, or fallback when nothing (or junk) is stored. */
export function readNumberPref(key: string, fallback: number): number {
  const raw = storage()?.getItem(PREFIX + key);
  if (raw == null || raw.trim() === '') return fallback;
  const n = Number(raw);
  return Number.isFinite(n) ? n : fallback;
}

export function writeNumberPref(key: string, value: number): void {
  try {
    storage()?.setItem(PREFIX + key, String(Math.round(value)));
  } catch {
    // A full or read-only storage only costs the remembered value.
  }
}
