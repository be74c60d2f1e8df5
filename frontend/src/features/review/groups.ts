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
