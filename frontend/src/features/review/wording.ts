// The Changes pane's words: a message named by its prompt, and exactly what a rollback
// does to the file (deletes it, restores its previous content, recreates it).
import type { ReviewChange } from '../../bridge/types';
import { escapeName } from '../../lib/names';
import { clip } from '../../lib/tools';

/** How many characters of a prompt name its message in the pane. */
export const PROMPT_TITLE_CHARS = 60;

/**
 * Where the pane finds a change's prompt: keys `c:<toolCallId>`, `m:<messageId>` and
 * `t:<turnId>` map to the prompt of the turn that made it (features/transcript).
 */
export type PromptIndex = Readonly<Record<string, string>>;

/** The prompt behind a message's changes, or '' when the transcript does not hold it (not loaded, or empty). */
export function promptOf(index: PromptIndex | undefined, keys: { messageId: string; toolCallIds?: string[]; turnIds?: string[] }): string {
  if (!index) return '';
  for (const id of keys.toolCallIds ?? []) if (index[`c:${id}`]) return index[`c:${id}`]!;
  if (index[`m:${keys.messageId}`]) return index[`m:${keys.messageId}`]!;
  for (const id of keys.turnIds ?? []) if (index[`t:${id}`]) return index[`t:${id}`]!;
  return '';
}

/** A group's heading: the prompt's first words on one line, else "Message N". */
export function groupTitle(prompt: string, ordinal: number): string {
  const line = prompt.replace(/\s+/g, ' ').trim();
  if (line === '') return `Message ${ordinal}`;
  const cut = clip(line, PROMPT_TITLE_CHARS);
  if (cut.clipped === 0) return line;
  // End on a whole word when one ends reasonably late.
  const space = cut.text.lastIndexOf(' ');
  return `${(space >= PROMPT_TITLE_CHARS * 0.6 ? cut.text.slice(0, space) : cut.text).trimEnd()}…`;
}

/** One sentence saying what rolling the change back does to the file. */
export function rollbackEffect(change: Pick<ReviewChange, 'path' | 'status' | 'additions' | 'deletions'>): string {
  const name = escapeName(change.path);
  switch (change.status) {
    case 'added':
      return `Deletes ${name}, which the agent created.`;
    case 'deleted':
      return `Recreates ${name} with the content it had before the agent deleted it.`;
    default: {
      const lines = (n: number, what: string) => `${n} ${what} ${n === 1 ? 'line' : 'lines'}`;
      return `Restores the previous content of ${name} (undoes ${lines(change.additions, 'added')} and ${lines(change.deletions, 'removed')}).`;
    }
  }
}
