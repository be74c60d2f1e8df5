// What an approval card asks, in words: "Create notes.md", "Edit 3 lines in src/app.ts",
// "Run npm test in alpha-app". Read from what the host put on the card (its diff, the
// diff's note, the parsed command), never from the model's raw arguments.
import type { ApprovalRequest } from '../../bridge/types';
import { escapeName } from '../../lib/names';
import { parseUnifiedDiff } from '../../lib/unifiedDiff';

export interface CardSummary {
  /** Create, Overwrite, Edit 3 lines in, Delete, Run, Run 2 commands in. */
  verb: string;
  /** The file (workspace-relative when inside it) or the one command; "" for none. */
  target: string;
  /** "in FOLDER" for a command: the workspace's folder name; "" otherwise. */
  folder: string;
  /** The target is a command (shown as code), not a path. */
  command: boolean;
}

function baseName(p: string): string {
  const parts = p.split(/[\\/]/).filter(Boolean);
  return parts[parts.length - 1] ?? p;
}

/** A path inside the workspace reads relative to it; any other stays absolute. */
export function shownPath(path: string, workspace: string): string {
  const ws = workspace.replace(/[\\/]+$/, '');
  if (ws !== '' && (path.startsWith(`${ws}/`) || path.startsWith(`${ws}\\`))) return escapeName(path.slice(ws.length + 1));
  return escapeName(path);
}

function changedLines(diff: string): number {
  let added = 0;
  let removed = 0;
  for (const h of parseUnifiedDiff(diff).hunks) {
    for (const l of h.lines) {
      if (l[0] === '+') added++;
      else if (l[0] === '-') removed++;
    }
  }
  // A line rewritten in place is one line edited, not two.
  return Math.max(added, removed);
}

function plural(n: number, one: string): string {
  return `${n} ${one}${n === 1 ? '' : 's'}`;
}

/** The card's one-line summary, or null for a tool the card cannot put in words (MCP, …). */
export function cardSummary(r: ApprovalRequest): CardSummary | null {
  if (r.command.dialect !== '') {
    const cmds = r.command.commands;
    const folder = r.workspace ? baseName(r.workspace) : '';
    if (cmds.length === 1) return { verb: 'Run', target: cmds[0]!.text, folder, command: true };
    return { verb: cmds.length > 1 ? `Run ${plural(cmds.length, 'command')}` : 'Run a command', target: '', folder, command: true };
  }
  if (!r.path || (r.tool !== 'Write' && r.tool !== 'Edit')) return null;
  const target = shownPath(r.path, r.workspace);
  const file = { target, folder: '', command: false };
  if (r.diffNote === 'new file') return { verb: 'Create', ...file };
  if (r.diffNote === 'deletes the file') return { verb: 'Delete', ...file };
  if (r.tool === 'Write') return { verb: 'Overwrite', ...file };
  const n = r.diff ? changedLines(r.diff) : 0;
  return { verb: n > 0 ? `Edit ${plural(n, 'line')} in` : 'Edit', ...file };
}

/** Why the card is coloured as risky ("" when it is not): outside paths, protected paths, commands. */
export function riskNote(r: ApprovalRequest): string {
  if (r.external) return 'Outside the workspace';
  if (r.protected) return 'Protected path';
  if (r.command.dialect !== '') return 'Runs a command';
  return '';
}
