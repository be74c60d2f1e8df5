// The composer's "/" commands, pure: the menu's entries, what the text before the caret
// asks for, and how a sent text names a command.

export type SlashKind = 'builtin' | 'custom' | 'skill';

export interface SlashEntry {
  /** What follows "/": "new", "mode auto", "review", "git:commit", "skill:pdf". */
  name: string;
  description: string;
  /** Shown after the name: "<file>", "[text]". */
  hint: string;
  kind: SlashKind;
  /**
   * Enter runs it at once; otherwise Enter (and always Tab) completes "/name " so the
   * arguments can be typed.
   */
  runsOnPick: boolean;
}

/** A skill the composer can invoke as /skill:<name> (the skills binding fills these). */
export interface SlashSkill {
  name: string;
  description: string;
}

/**
 * What the composer says about skills the menu cannot offer: how many the model's
 * catalog left out (still invocable with /skill:), and the files that are not usable
 * skills, each with why (the skills binding fills these).
 */
export interface SlashSkillNotes {
  leftOut: number;
  problems: ReadonlyArray<{ path: string; name: string; message: string }>;
}

/** Whether the menu's query is looking for skills: a start of "skill:", or past it. */
export function wantsSkills(query: string): boolean {
  const q = query.toLowerCase();
  return q !== '' && ('skill:'.startsWith(q) || q.startsWith('skill:'));
}

function builtin(name: string, description: string): SlashEntry {
  return { name, description, hint: '', kind: 'builtin', runsOnPick: true };
}

/** The composer's own commands, in menu order. */
export const BUILTIN_COMMANDS: readonly SlashEntry[] = [
  builtin('new', 'Start a new session in this project'),
  builtin('plan', 'Switch to Plan mode: the agent proposes a plan before changing anything'),
  builtin('goal', 'Switch to Goal mode: the agent works until the goal is met'),
  builtin('agent', 'Switch to Agent mode'),
  builtin('compact', 'Compact the context before the next request (new_context)'),
  builtin('model', 'Choose the model for this session'),
  builtin('mode ask', 'Permission mode: ask before changes and commands'),
  builtin('mode accept-edits', 'Permission mode: accept file edits, ask for commands'),
  builtin('mode auto', 'Permission mode: run without asking'),
  builtin('mcp', 'Choose MCP servers for the next prompt'),
];

/** The menu's entries: built-ins, then the custom commands, then the skills. */
export function slashEntries(custom: ReadonlyArray<{ name: string; description: string; argumentHint: string }>, skills: readonly SlashSkill[]): SlashEntry[] {
  return [
    ...BUILTIN_COMMANDS,
    ...custom.map((c) => ({ name: c.name, description: c.description, hint: c.argumentHint, kind: 'custom' as const, runsOnPick: c.argumentHint === '' })),
    ...skills.map((s) => ({ name: `skill:${s.name}`, description: s.description, hint: '[text]', kind: 'skill' as const, runsOnPick: false })),
  ];
}

/**
 * The menu's query: what follows "/" up to the caret, while the text starts with "/"
 * and that part is one line; null when no menu applies.
 */
export function slashQuery(text: string, caret: number): string | null {
  if (!text.startsWith('/') || caret < 1) return null;
  const typed = text.slice(1, caret);
  return typed.includes('\n') ? null : typed;
}

/** Entries whose name starts with the query first, then those containing it; case-insensitive. */
export function filterSlash(entries: readonly SlashEntry[], query: string): SlashEntry[] {
  const q = query.toLowerCase().replace(/\s+/g, ' ');
  const prefix = entries.filter((e) => e.name.toLowerCase().startsWith(q));
  const inner = entries.filter((e) => !e.name.toLowerCase().startsWith(q) && e.name.toLowerCase().includes(q));
  return [...prefix, ...inner];
}

const COMMAND = /^\/([A-Za-z0-9_][A-Za-z0-9_.:-]*)(?:\s+([\s\S]*))?$/;

/**
 * The command a text to send names: "/review main.go" is { name: "review", args:
 * "main.go" }. null for a text that is not one ("/usr/bin/env fails", "hello").
 */
export function parseSlash(text: string): { name: string; args: string } | null {
  const m = COMMAND.exec(text.trim());
  if (!m) return null;
  return { name: m[1]!, args: (m[2] ?? '').trim() };
}
