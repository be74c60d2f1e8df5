import type { CommandChange } from '../../bridge/checkpoints';
import type { ReviewChange, ReviewHunk } from '../../bridge/types';

export interface MessageGroup {
  messageId: string;
  /** 1-based order of the message among those that changed files. */
  ordinal: number;
  createdAt: number;
  changes: ReviewChange[];
}

/** Groups records by the message that made them, in the order given (oldest first). */
export function groupByMessage(changes: ReviewChange[]): MessageGroup[] {
  const groups: MessageGroup[] = [];
  const byId = new Map<string, MessageGroup>();
  for (const c of changes) {
    let g = byId.get(c.messageId);
    if (!g) {
      g = { messageId: c.messageId, ordinal: groups.length + 1, createdAt: c.createdAt, changes: [] };
      byId.set(c.messageId, g);
      groups.push(g);
    }
    g.changes.push(c);
  }
  return groups;
}

export interface MessageChanges extends MessageGroup {
  /** The message's Bash calls that changed files (or whose change is unknown), oldest first. */
  commands: CommandChange[];
}

/**
 * groupByMessage with each message's Bash calls beside its records; a message whose only
 * changes came from commands gets a group of its own. Groups are ordered by their first
 * change.
 */
export function groupWithCommands(changes: ReviewChange[], commands: CommandChange[]): MessageChanges[] {
  const groups: MessageChanges[] = groupByMessage(changes).map((g) => ({ ...g, commands: [] }));
  const byId = new Map(groups.map((g) => [g.messageId, g]));
  for (const c of commands) {
    let g = byId.get(c.messageId);
    if (!g) {
      g = { messageId: c.messageId, ordinal: 0, createdAt: c.createdAt, changes: [], commands: [] };
      byId.set(c.messageId, g);
      groups.push(g);
    }
    g.createdAt = Math.min(g.createdAt, c.createdAt);
    g.commands.push(c);
  }
  groups.sort((a, b) => a.createdAt - b.createdAt);
  groups.forEach((g, i) => (g.ordinal = i + 1));
  return groups;
}

export type DiffLineKind = 'add' | 'del' | 'ctx';

export interface DiffLine {
  kind: DiffLineKind;
  /** 0 when the line is not on that side. */
  oldNo: number;
  newNo: number;
  text: string;
}

/** The first line number of a hunk side: an empty side names the line before it. */
function firstLine(start: number, count: number): number {
  return count === 0 ? start + 1 : start;
}

/** Numbers the lines of a unified-diff hunk ("+", "-" or " " prefixed). */
export function numberHunk(h: ReviewHunk): DiffLine[] {
  let oldNo = firstLine(h.oldStart, h.oldLines);
  let newNo = firstLine(h.newStart, h.newLines);
  return h.lines.map((l) => {
    const text = l.slice(1);
    switch (l[0]) {
      case '+':
        return { kind: 'add', oldNo: 0, newNo: newNo++, text };
      case '-':
        return { kind: 'del', oldNo: oldNo++, newNo: 0, text };
      default:
        return { kind: 'ctx', oldNo: oldNo++, newNo: newNo++, text };
    }
  });
}

export function hunkLineCount(hunks: ReviewHunk[]): number {
  return hunks.reduce((n, h) => n + h.lines.length, 0);
}
