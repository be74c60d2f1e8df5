import type { PermissionMode, Session, ThemeSetting } from '../bridge/types';

/** "Agent", "Plan", "Goal" for known operating modes; other values are title-cased. */
export function operatingModeLabel(mode: string): string {
  switch (mode) {
    case 'agent':
    case '':
      return 'Agent';
    case 'plan':
      return 'Plan';
    case 'goal':
      return 'Goal';
    default:
      return mode.charAt(0).toUpperCase() + mode.slice(1);
  }
}

// Each line says what runs without a card (backend/permission Evaluate): reads
// inside the project never ask, and .git or the agent's own configuration
// always ask, in every mode.
export const PERMISSION_MODES: ReadonlyArray<{ value: PermissionMode; label: string; description: string }> = [
  { value: 'ask', label: 'Ask', description: 'Asks before every file change and command. Reading the project never asks.' },
  { value: 'accept-edits', label: 'Accept edits', description: 'Edits files inside the project without asking; commands and paths outside it still ask.' },
  {
    value: 'auto',
    label: 'Auto',
    description: 'Runs edits, commands and outside paths without asking; changes to .git or the agent’s own configuration still ask.',
  },
];

export const THEMES: ReadonlyArray<{ value: ThemeSetting; label: string }> = [
  { value: 'system', label: 'System' },
  { value: 'light', label: 'Light' },
  { value: 'dark', label: 'Dark' },
];

export function sessionTitle(s: Pick<Session, 'title'>): string {
  const t = s.title.trim();
  return t === '' ? 'Untitled session' : t;
}

/** A title typed by the user, trimmed; null when nothing is left. */
export function cleanTitle(input: string): string | null {
  const t = input.trim();
  return t === '' ? null : t;
}

/** Parses the permission timeout field: an integer 0..86400, else null. */
export function parseTimeoutSeconds(input: string): number | null {
  const t = input.trim();
  if (!/^\d+$/.test(t)) return null;
  const n = Number(t);
  return n >= 0 && n <= 86_400 ? n : null;
}

/** How to configure a model until the Settings section for providers exists. */
export const MODEL_SETUP_HINT =
  'Set PI_DESKTOP_PROVIDER (anthropic, openai or openai-compatible with PI_DESKTOP_BASE_URL) and PI_DESKTOP_MODEL, plus ANTHROPIC_API_KEY or OPENAI_API_KEY, in the environment PI-Desktop starts from, then restart it — or add a model in Settings → Models.';

export function permissionModeLabel(mode: string): string {
  return PERMISSION_MODES.find((m) => m.value === mode)?.label ?? mode;
}

/** The mode a session really runs in: its own unless "inherit" (or unset), else the global default (spec §6). */
export function effectivePermissionMode(sessionMode: string, defaultMode: PermissionMode | undefined): PermissionMode {
  const own = PERMISSION_MODES.find((m) => m.value === sessionMode);
  return own ? own.value : defaultMode ?? 'ask';
}

/** What the window says while a turn waits on a permission card: row, footer, sidebar, title. */
export const WAITING_FOR_APPROVAL = 'Waiting for your approval';
