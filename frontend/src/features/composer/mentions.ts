// @-references to workspace files in the composer text: where the one being typed
// is, and how a picked path replaces it. The agent reads the same syntax
// (backend/agent/refs.go): "@path", or "@\"path with spaces\"", at the start or
// after white space.

export interface Mention {
  /** Index of the "@". */
  start: number;
  /** End of the token (the caret, or further when the caret sits inside it). */
  end: number;
  /** What follows "@" (and the opening quote) up to the caret. */
  query: string;
}

const SPACE = /\s/;

/** The @-reference the caret is in, or null. */
export function activeMention(text: string, caret: number): Mention | null {
  if (caret < 0 || caret > text.length) return null;
  // Quoted: @"… with no closing quote or line break before the caret.
  for (let i = caret - 1; i >= 0; i--) {
    const ch = text[i]!;
    if (ch === '\n' || ch === '"') {
      if (ch === '"' && i > 0 && text[i - 1] === '@' && (i === 1 || SPACE.test(text[i - 2]!))) {
        let end = caret;
        while (end < text.length && text[end] !== '"' && text[end] !== '\n') end++;
        if (text[end] === '"') end++;
        return { start: i - 1, end, query: text.slice(i + 1, caret) };
      }
      break;
    }
  }
  for (let i = caret - 1; i >= 0; i--) {
    const ch = text[i]!;
    if (SPACE.test(ch)) return null;
    if (ch === '@') {
      if (i > 0 && !SPACE.test(text[i - 1]!)) return null; // e-mail, not a reference
      const query = text.slice(i + 1, caret);
      if (query.startsWith('"')) return null;
      let end = caret;
      while (end < text.length && !SPACE.test(text[end]!)) end++;
      return { start: i, end, query };
    }
  }
  return null;
}

/** The reference as the composer writes it. */
export function mentionText(path: string): string {
  return /\s|"/.test(path) ? `@"${path.replace(/"/g, '')}"` : `@${path}`;
}

/** Replaces the mention with the picked path and a space; returns the text and the caret after it. */
export function insertMention(text: string, m: Mention, path: string): { text: string; caret: number } {
  const after = text.slice(m.end);
  const insert = mentionText(path) + (after.startsWith(' ') ? '' : ' ');
  const next = text.slice(0, m.start) + insert + after;
  const caret = m.start + insert.length + (after.startsWith(' ') ? 1 : 0);
  return { text: next, caret };
}

/**
 * Inserts a reference to path at caret (the Files pane's Mention), set apart from the
 * text around it by spaces; returns the text and the caret after the reference.
 */
export function insertMentionAt(text: string, caret: number, path: string): { text: string; caret: number } {
  const at = Math.max(0, Math.min(caret, text.length));
  const before = text.slice(0, at);
  const after = text.slice(at);
  const lead = before === '' || /\s$/.test(before) ? '' : ' ';
  const trail = after.startsWith(' ') ? '' : ' ';
  const insert = lead + mentionText(path) + trail;
  return { text: before + insert + after, caret: at + insert.length + (trail === '' ? 1 : 0) };
}
