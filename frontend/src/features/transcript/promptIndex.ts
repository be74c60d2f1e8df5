// Which prompt made each message and tool call of a transcript: the Changes pane names
// a message's changes by it (features/review/wording).
import type { TranscriptItem } from '../../state/transcript';
import type { PromptIndex } from '../review/wording';

export function promptIndex(items: readonly TranscriptItem[]): PromptIndex {
  const byTurn = new Map<string, string>();
  for (const it of items) if (it.kind === 'prompt' && it.text.trim() !== '') byTurn.set(it.turnId, it.text);
  const index: Record<string, string> = {};
  for (const it of items) {
    const prompt = byTurn.get(it.turnId);
    if (prompt === undefined) continue;
    index[`t:${it.turnId}`] = prompt;
    if (it.kind === 'tool') index[`c:${it.toolCallId}`] = prompt;
    if (it.kind === 'tool' || it.kind === 'text') index[`m:${it.messageId}`] = prompt;
  }
  return index;
}

export function sameIndex(a: PromptIndex, b: PromptIndex): boolean {
  const ak = Object.keys(a);
  return ak.length === Object.keys(b).length && ak.every((k) => a[k] === b[k]);
}
