import { describe, expect, it } from 'vitest';
import * as norm from '../../bridge/normalize';
import type { ApprovalItem, ToolItem } from '../../state/transcript';
import { approvalStory } from './approvalStory';

function tool(result: Record<string, unknown> | null, waitedMs = 0): ToolItem {
  return {
    kind: 'tool', key: 'tool:c1', turnId: 't1', messageId: 'm1', toolCallId: 'c1', toolUseId: 'u1', tool: 'Bash', mcp: null, args: null, argsText: '',
    status: result ? 'done' : 'running', startedAt: 1, finishedAt: 2, waitedMs, result: result ? norm.toolResult(result) : null, modelText: '', isError: false,
    output: [], outputPaused: false, instructions: [],
  };
}

const answered = (outcome: ApprovalItem['outcome']) => ({ kind: 'approval', outcome }) as ApprovalItem;

describe('approvalStory', () => {
  it.each([
    ['a card allowed once', { decision: 'allow-once', approval: { by: 'user', mode: 'ask', waitMs: 11_000 } }, 'Allowed once by you', true],
    ['a card denied', { ok: false, decision: 'denied', approval: { by: 'user', mode: 'ask', waitMs: 2_000 } }, 'Denied by you', false],
    ['a command rule', { decision: 'allow', approval: { by: 'rule', mode: 'ask', rules: ['allow npm test (project)'] } }, 'Allowed by rule npm test (project)', true],
    ['the mode', { decision: 'allow', approval: { by: 'mode', mode: 'auto' } }, 'Allowed by Auto mode', true],
    ['an earlier allow-for-session', { decision: 'granted', approval: { by: 'session', mode: 'ask' } }, 'Allowed for this session by you', true],
    ['a result stored before approvals were', { decision: 'allow-once' }, 'Allowed once by you', true],
    ['a stopped card', { ok: false, decision: 'cancelled', approval: { by: 'user', mode: 'ask' } }, 'Not answered: the turn was stopped', false],
  ])('tells %s', (_, result, text, ran) => {
    const s = approvalStory(tool({ ok: true, ...result }, (result as { approval?: { waitMs?: number } }).approval?.waitMs ?? 0), undefined);
    expect(s?.text).toBe(text);
    expect(s?.ran).toBe(ran);
  });

  it('says nothing when no card was due', () => {
    expect(approvalStory(tool({ ok: true, decision: 'allow' }), undefined)).toBeNull();
  });

  it('reads a live answer like the stored result it becomes', () => {
    const live = approvalStory(tool(null, 9_000), answered('allow-once'));
    const stored = approvalStory(tool({ ok: true, decision: 'allow-once', approval: { by: 'user', mode: 'ask', waitMs: 9_000 } }, 9_000), undefined);
    expect(live).toEqual(stored);
    expect(live?.wait).toBe('waited 9.0 s for approval');
    expect(approvalStory(tool(null), answered('deny'))?.text).toBe('Denied by you');
  });
});
