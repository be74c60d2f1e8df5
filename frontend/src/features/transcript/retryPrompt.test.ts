import { describe, expect, it } from 'vitest';
import type { Attachment } from '../../bridge/attachments';
import type { TranscriptItem } from '../../state/transcript';
import { retryPrompt } from './retryPrompt';

const shot: Attachment = {
  path: '/data/scratch/s1/pasted/shot.png',
  name: 'shot.png',
  size: 1234,
  mediaType: 'image/png',
  sha256: 'a'.repeat(64),
  width: 40,
  height: 30,
  imageBytes: 1234,
  imageMediaType: 'image/png',
};
const notes: Attachment = {
  path: '/data/scratch/s1/pasted/notes.txt',
  name: 'notes.txt',
  size: 5,
  mediaType: 'text/plain; charset=utf-8',
  sha256: '',
  width: 0,
  height: 0,
  imageBytes: 0,
  imageMediaType: '',
};

function prompt(turnId: string, text: string, attachments?: Attachment[]): TranscriptItem {
  return { kind: 'prompt', key: `prompt:${turnId}`, turnId, messageId: `m-${turnId}`, text, ...(attachments ? { attachments } : {}) };
}

describe('retryPrompt', () => {
  const items: TranscriptItem[] = [
    prompt('t1', 'first'),
    { kind: 'text', key: 'x', turnId: 't1', messageId: 'm-x', text: 'an answer', streaming: false },
    prompt('t2', 'what is in these?', [shot, notes]),
    prompt('t3', '', [shot]),
    prompt('t4', ''),
  ];

  it.each([
    ['text only', 't1', { text: 'first' }],
    ['text and attachments: both again', 't2', { text: 'what is in these?', attachments: [shot, notes] }],
    ['attachments alone', 't3', { text: '', attachments: [shot] }],
    ['nothing to send', 't4', null],
    ['an unknown turn', 'nope', null],
  ] as const)('%s', (_name, turnId, want) => {
    expect(retryPrompt(items, turnId)).toEqual(want);
  });

  it('hands out copies, not the transcript state', () => {
    const got = retryPrompt(items, 't2');
    expect(got?.attachments?.[0]).not.toBe(shot);
  });
});
