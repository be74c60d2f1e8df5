// The one table of global shortcuts: the key handler matches events against it, the
// `?` overlay lists it, and menus, buttons and the palette show its key labels. "Mod"
// is Cmd on macOS and Ctrl elsewhere.

export type CommandId =
  | 'palette'
  | 'newSession'
  | 'nextSession'
  | 'previousSession'
  | 'focusComposer'
  | 'stop'
  | 'toggleChanges'
  | 'toggleActivity'
  | 'settings'
  | 'shortcuts';

export interface Shortcut {
  id: CommandId;
  /** What the command does, as listed in the overlay and the palette. */
  label: string;
  /** Cmd on macOS, Ctrl elsewhere. */
  mod: boolean;
  shift?: boolean;
  alt?: boolean;
  /** KeyboardEvent.code: the physical key, so Shift and keyboard layouts do not change it. */
  code: string;
  /** How the key is printed. */
  keyLabel: string;
}

export const SHORTCUTS: readonly Shortcut[] = [
  { id: 'palette', label: 'Command palette', mod: true, code: 'KeyK', keyLabel: 'K' },
  { id: 'newSession', label: 'New session', mod: true, code: 'KeyN', keyLabel: 'N' },
  { id: 'nextSession', label: 'Next session', mod: true, shift: true, code: 'BracketRight', keyLabel: ']' },
  { id: 'previousSession', label: 'Previous session', mod: true, shift: true, code: 'BracketLeft', keyLabel: '[' },
  { id: 'focusComposer', label: 'Focus the message box', mod: true, code: 'KeyL', keyLabel: 'L' },
  { id: 'stop', label: 'Stop the agent', mod: true, code: 'Period', keyLabel: '.' },
  { id: 'toggleChanges', label: 'Show or hide Changes', mod: true, shift: true, code: 'KeyG', keyLabel: 'G' },
  { id: 'toggleActivity', label: 'Show or hide Activity', mod: true, shift: true, code: 'KeyA', keyLabel: 'A' },
  { id: 'settings', label: 'Settings', mod: true, code: 'Comma', keyLabel: ',' },
  { id: 'shortcuts', label: 'Keyboard shortcuts', mod: false, shift: true, code: 'Slash', keyLabel: '?' },
];

export function shortcutFor(id: CommandId): Shortcut {
  return SHORTCUTS.find((s) => s.id === id)!;
}

/** True on macOS, from the backend's platform name (AppInfo.platform) or the browser's. */
export function isMacPlatform(platform: string | undefined): boolean {
  const p = platform ?? (typeof navigator === 'undefined' ? '' : navigator.platform);
  return /^(darwin|mac)/i.test(p);
}

/** The printed keys, e.g. "⌘⇧]" on macOS and "Ctrl+Shift+]" elsewhere; `?` is printed alone. */
export function formatShortcut(s: Shortcut, mac: boolean): string {
  if (!s.mod && !s.alt) return s.keyLabel;
  if (mac) return `${s.mod ? '⌘' : ''}${s.alt ? '⌥' : ''}${s.shift ? '⇧' : ''}${s.keyLabel}`;
  return [s.mod && 'Ctrl', s.alt && 'Alt', s.shift && 'Shift', s.keyLabel].filter(Boolean).join('+');
}

/** The words a screen reader is told in aria-keyshortcuts, e.g. "Meta+Shift+BracketRight". */
export function ariaShortcut(s: Shortcut, mac: boolean): string {
  if (!s.mod && !s.alt) return s.keyLabel;
  return [s.mod && (mac ? 'Meta' : 'Control'), s.alt && 'Alt', s.shift && 'Shift', s.keyLabel].filter(Boolean).join('+');
}

interface KeyLike {
  code: string;
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
}

/** The command a key press means, or null. Ctrl on macOS (and Cmd elsewhere) is not Mod. */
export function matchShortcut(e: KeyLike, mac: boolean): CommandId | null {
  const mod = mac ? e.metaKey : e.ctrlKey;
  const other = mac ? e.ctrlKey : e.metaKey;
  if (other) return null;
  for (const s of SHORTCUTS) {
    if (s.id === 'shortcuts') {
      // `?` is a typed character: its key, whatever key the layout puts it on.
      if (e.key === '?' && !mod && !e.altKey) return s.id;
      continue;
    }
    if (s.code === e.code && s.mod === mod && Boolean(s.shift) === e.shiftKey && Boolean(s.alt) === e.altKey) return s.id;
  }
  return null;
}

/** Focus is in a field that takes typed text: a plain `?` is the user's. */
export function typingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  if (target instanceof HTMLInputElement) return !['checkbox', 'radio', 'button', 'submit', 'reset', 'range', 'color', 'file'].includes(target.type);
  return false;
}
