import { describe, expect, it } from 'vitest';
import { agentEvent, transcript as normTranscript } from '../bridge/normalize';
import { initialTranscript, transcriptReducer, type ToolItem, type TranscriptState } from './transcript';

const S = 's1';
const pkg = { path: 'pkg/AGENTS.md', size: 2150, loaded: 2150 };

function tools(st: TranscriptState): ToolItem[] {
  return st.items.filter((i): i is ToolItem => i.kind === 'tool');
}

describe('transcriptReducer: path instructions', () => {
  it('a tool result carries the instruction files it loaded', () => {
    const loaded = transcriptReducer(initialTranscript(S), { type: 'loaded', transcript: { sessionId: S, turns: [], messages: [] } });
    const event = agentEvent('agent:tool_result', {
      sessionId: S, turnId: 't1', messageId: 'm1', toolCallId: 'c1', toolUseId: 'u1', tool: 'Read', state: 'done',
      result: { ok: true }, modelText: 'x', isError: false, instructions: [pkg, { path: 'l/AGENTS.md', size: 0, skipped: 'a link' }],
    });
    if (!event) throw new Error('tool_result did not parse');
    const st = transcriptReducer(loaded, { type: 'event', event, at: 5 });
    expect(tools(st)[0]!.instructions).toEqual([
      { ...pkg, truncated: false, skipped: '' },
      { path: 'l/AGENTS.md', size: 0, loaded: 0, truncated: false, skipped: 'a link' },
    ]);
  });

  it('a reload shows them again from the stored call, and a call without any has none', () => {
    const stored = normTranscript({
      sessionId: S,
      turns: [{ id: 't1', sessionId: S, prompt: 'Look', state: 'done', createdAt: 1, updatedAt: 2 }],
      messages: [
        { seq: 1, id: 'p1', turnId: 't1', role: 'user', kind: 'prompt', content: [{ type: 'text', text: 'Look' }], stopReason: 'end_turn' },
        {
          seq: 2, id: 'm1', turnId: 't1', role: 'assistant', kind: 'model', stopReason: 'tool_use',
          content: [
            { type: 'tool_use', toolUseId: 'u1', toolName: 'Read', input: { path: 'pkg/a.go' } },
            { type: 'tool_use', toolUseId: 'u2', toolName: 'Read', input: { path: 'pkg/b.go' } },
          ],
          toolCalls: [
            { id: 'c1', turnId: 't1', messageId: 'm1', toolUseId: 'u1', position: 0, tool: 'Read', state: 'done', result: { ok: true }, instructions: [pkg] },
            { id: 'c2', turnId: 't1', messageId: 'm1', toolUseId: 'u2', position: 1, tool: 'Read', state: 'done', result: { ok: true } },
          ],
        },
      ],
    });
    const st = transcriptReducer(initialTranscript(S), { type: 'loaded', transcript: stored });
    expect(tools(st).map((t) => t.instructions.map((f) => f.path))).toEqual([['pkg/AGENTS.md'], []]);
  });
});
