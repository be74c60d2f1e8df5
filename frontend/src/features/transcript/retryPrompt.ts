import type { Attachment } from '../../bridge/attachments';
import type { TranscriptItem } from '../../state/transcript';

/** What Retry sends again for a failed turn. */
export interface RetryPrompt {
  text: string;
  attachments?: Attachment[];
}

/**
 * The prompt of turnId as it was sent: its text and its attachments (the references the
 * host verifies again at dispatch), or null when there is nothing to send. A prompt of
 * attachments alone is still a prompt.
 */
export function retryPrompt(items: readonly TranscriptItem[], turnId: string): RetryPrompt | null {
  const prompt = items.find((it) => it.kind === 'prompt' && it.turnId === turnId);
  if (prompt?.kind !== 'prompt') return null;
  const attachments = prompt.attachments ?? [];
  if (prompt.text === '' && attachments.length === 0) return null;
  return attachments.length > 0 ? { text: prompt.text, attachments: attachments.map((a) => ({ ...a })) } : { text: prompt.text };
}
