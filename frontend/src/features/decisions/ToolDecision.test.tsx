import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import * as norm from '../../bridge/normalize';
import type { ToolItem } from '../../state/transcript';
import { ToolBlock } from '../transcript/ToolBlock';

vi.mock('../../bridge', () => import('../../test/fakeBridge').then((m) => m.bridgeModule));

function item(tool: string, args: unknown, result: Record<string, unknown> | null, status: ToolItem['status'] = 'done'): ToolItem {
  return {
    kind: 'tool', key: `tool:${tool}`, turnId: 't1', messageId: 'm1', toolCallId: 'c1', toolUseId: 'u1', tool, mcp: null, args, argsText: '',
    status, startedAt: 1000, finishedAt: 2000, waitedMs: 0, result: result ? norm.toolResult(result) : null, modelText: '', isError: false,
    output: [], outputPaused: false, instructions: [],
  };
}

function show(i: ToolItem) {
  render(<ToolBlock item={i} reviews={{}} onRollback={async () => {}} />);
  return screen.getByRole('button', { name: new RegExp(i.tool) });
}

const askArgs = { questions: [{ question: 'Which database?', options: ['SQLite', 'Postgres'] }, { question: 'Anything else?' }] };
const plan = { title: 'Add a login form', markdown: '# Login form\n\n1. Add `src/login.ts`\n', question: 'OK?' };

describe('decision tools in the transcript', () => {
  it('an asktool call waiting for the user says so, with its first question', () => {
    const head = show(item('asktool', askArgs, null, 'running'));
    expect(head).toHaveTextContent('Which database? (+1 more)');
    expect(head).toHaveTextContent('Waiting for you');
  });

  it('an answered asktool call lists the questions with their answers', () => {
    const content = JSON.stringify({ answers: [{ question: 'Which database?', selected: ['SQLite'], text: '' }, { question: 'Anything else?', selected: [], text: 'Keep it small' }] });
    const head = show(item('asktool', askArgs, { ok: true, content, questionId: 'q1', skipped: false }));
    expect(head).toHaveTextContent('Answered');
    const answers = screen.getByLabelText('Answers');
    expect(answers).toHaveTextContent('Which database?SQLite');
    expect(answers).toHaveTextContent('Anything else?Keep it small');
  });

  it('a skipped asktool call is marked Skipped without an empty answer list', () => {
    const content = JSON.stringify({ answers: [{ question: 'Which database?', selected: [], text: '' }, { question: 'Anything else?', selected: [], text: '' }] });
    const head = show(item('asktool', askArgs, { ok: true, content, skipped: true, notice: 'the turn was stopped' }));
    expect(head).toHaveTextContent('Skipped');
    expect(screen.queryByRole('definition')).not.toBeInTheDocument();
  });

  it('an approved plan shows its title, the mode it continues in, and the document on demand', async () => {
    const user = userEvent.setup();
    const head = show(item('SubmitPlan', plan, {
      ok: true, content: 'The user approved the plan', proposalId: 'p1', version: 1, path: '.pi/plan/add-a-login-form-1.md', decision: 'approved', permissionMode: 'accept-edits',
    }));
    expect(head).toHaveTextContent('Add a login form');
    expect(head).toHaveTextContent('Approved');
    expect(screen.getByText('Approved — continuing in Agent mode with Accept edits.')).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Plan document' })).not.toBeInTheDocument();
    await user.click(head);
    const doc = screen.getByRole('region', { name: 'Plan document' });
    expect(within(doc).getByRole('heading', { name: 'Login form' })).toBeInTheDocument();
  });

  it('a rejected goal shows the feedback; a stopped one says it was cancelled', () => {
    const { unmount } = render(
      <ToolBlock
        item={item('SubmitGoal', { ...plan, title: 'Ship 1.0' }, { ok: true, path: '.pi/goal/ship-1.md', decision: 'rejected', feedback: 'Add a rollback step.' })}
        reviews={{}}
        onRollback={async () => {}}
      />,
    );
    expect(screen.getByRole('button', { name: /SubmitGoal/ })).toHaveTextContent('Rejected');
    expect(screen.getByText('Rejected — the agent revises the goal.')).toBeInTheDocument();
    expect(screen.getByText('Add a rollback step.')).toBeInTheDocument();
    unmount();
    const head = show(item('SubmitPlan', plan, { ok: false, code: 'TOOL_ABORTED', message: 'stopped', path: '.pi/plan/x.md', decision: 'cancelled' }, 'failed'));
    expect(head).toHaveTextContent('Cancelled');
    expect(screen.getByText(/Cancelled — the turn was stopped before a decision. The plan is kept at .pi\/plan\/x.md./)).toBeInTheDocument();
  });

  it('a refused submit keeps the usual failure code', () => {
    const head = show(item('SubmitPlan', plan, { ok: false, code: 'PLAN_NOT_ACTIVE', message: 'works only in Plan mode' }, 'failed'));
    expect(head).toHaveTextContent('PLAN_NOT_ACTIVE');
  });
});
