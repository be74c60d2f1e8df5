// Parses the bounded unified diff of an approval card (backend/review/preview.go) into
// the hunks the review pane's DiffView draws.
import type { ReviewHunk } from '../bridge/types';

export interface ParsedDiff {
  hunks: ReviewHunk[];
  /** Diff lines the host left out ("[diff truncated: N more lines]"); 0 when whole. */
  omitted: number;
  /** Whether the text ended with a truncation marker. */
  truncated: boolean;
}

const HEADER = /^@@ -(\d+),(\d+) \+(\d+),(\d+) @@/;
const MARKER = /^\[diff truncated: (\d+) more lines?\]$/;

/** Every row of a hunk starts with " ", "+" or "-", so a header or marker is never content. */
export function parseUnifiedDiff(text: string): ParsedDiff {
  const out: ParsedDiff = { hunks: [], omitted: 0, truncated: false };
  let hunk: ReviewHunk | null = null;
  for (const line of text.split('\n')) {
    const h = HEADER.exec(line);
    if (h) {
      hunk = { oldStart: Number(h[1]), oldLines: Number(h[2]), newStart: Number(h[3]), newLines: Number(h[4]), lines: [] };
      out.hunks.push(hunk);
      continue;
    }
    const m = MARKER.exec(line);
    if (m) {
      out.truncated = true;
      out.omitted = Number(m[1]);
      continue;
    }
    if (hunk && line !== '' && (line[0] === ' ' || line[0] === '+' || line[0] === '-')) hunk.lines.push(line);
  }
  return out;
}
