import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { BridgeError } from '../../bridge/errors';
import { bridgeModule as bridge, proposalRaw, questionRaw, resetFakeBridge, type FakeBackend } from '../../test/fakeBridge';
import { renderWithData } from '../../test/render';
import { DecisionSurfaces } from './DecisionSurfaces';

vi.mock('../../bridge', () => import('../../test/fakeBridge').then((m) => m.bridgeModule));

let backend: FakeBackend;

function setup(seed: Parameters<typeof resetFakeBridge>[0] = {}) {
  backend = resetFakeBridge(seed);
  const user = userEvent.setup();
  renderWithData(<DecisionSurfaces sessionId="s1" />);
  return user;
}

function emit(name: string, payload: Record<string, unknown>) {
  act(() => backend.emit(name, payload));
}

const dbQuestion = {
  question: 'Which database?',
  options: [
    { label: 'SQLite', description: 'One file, no server' },
    { label: 'Postgres', description: 'Needs a running server' },
  ],
};
const targets = { question: 'Which targets?', options: ['linux', 'macos', 'windows'], multiSelect: true };
const notes = { question: 'Anything else?' };

beforeEach(() => {
  backend = resetFakeBridge();
});

describe('Plan approval card', () => {
  it('shows the rendered plan, where it is saved, the question and Ask preselected', async () => {
    setup({ proposals: [proposalRaw('p1', 's1', { version: 2 })] });
    const card = await screen.findByRole('region', { name: 'Plan: Add a login form' });
    expect(within(card).getByText('v2')).toBeInTheDocument();
    expect(within(card).getByText('.pi/plan/add-a-login-form-1.md')).toBeInTheDocument();
    const doc = within(card).getByRole('region', { name: 'Plan document' });
    expect(within(doc).getByRole('heading', { name: 'Login form' })).toBeInTheDocument();
    expect(within(doc).getByText('src/login.ts', { selector: 'code' })).toBeInTheDocument();
    expect(within(card).getByText('Proceed with this plan?')).toBeInTheDocument();
    expect(within(card).getByRole('radio', { name: 'Ask' })).toBeChecked();
    expect(within(card).getByRole('radio', { name: 'Accept edits' })).not.toBeChecked();
    expect(within(card).getByRole('radio', { name: 'Auto' })).toHaveAccessibleDescription(/without asking/);
    // A new card takes the focus, on the document to read first, so a stray Enter approves nothing.
    expect(doc).toHaveFocus();
  });

  it('approves with the chosen permission mode and turns into its outcome', async () => {
    const user = setup({ proposals: [proposalRaw('p1', 's1')] });
    const card = await screen.findByRole('region', { name: /^Plan:/ });
    await user.click(within(card).getByRole('radio', { name: 'Accept edits' }));
    await user.click(within(card).getByRole('button', { name: 'Approve' }));
    expect(bridge.resolveProposal).toHaveBeenCalledWith({
      sessionId: 's1', turnId: 't1', proposalId: 'p1', version: 1, approve: true, permissionMode: 'accept-edits',
    });
    expect(await within(card).findByText('Approved — continuing in Agent mode with Accept edits.')).toBeInTheDocument();
    expect(within(card).queryByRole('button', { name: /Approve|Reject/ })).not.toBeInTheDocument();
    expect(within(card).queryByRole('radio')).not.toBeInTheDocument();
  });

  it('chooses the mode with the arrow keys and approves with Enter', async () => {
    const user = setup({ proposals: [proposalRaw('p1', 's1')] });
    const card = await screen.findByRole('region', { name: /^Plan:/ });
    within(card).getByRole('radio', { name: 'Ask' }).focus();
    await user.keyboard('{ArrowRight}{ArrowRight}');
    expect(within(card).getByRole('radio', { name: 'Auto' })).toBeChecked();
    expect(within(card).getByRole('radio', { name: 'Auto' })).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(bridge.resolveProposal).toHaveBeenCalledWith(expect.objectContaining({ approve: true, permissionMode: 'auto' }));
    expect(await within(card).findByRole('status')).toHaveTextContent('with Auto');
  });

  it('rejects with feedback, which the outcome repeats', async () => {
    const user = setup({ proposals: [proposalRaw('p1', 's1', { kind: 'goal', title: 'Ship 1.0', path: '.pi/goal/ship-1-0-1.md' })] });
    const card = await screen.findByRole('region', { name: 'Goal: Ship 1.0' });
    expect(within(card).getByText(/without it, the agent has to guess/)).toBeInTheDocument();
    await user.type(within(card).getByRole('textbox', { name: 'Feedback' }), 'Add a rollback step.');
    await user.click(within(card).getByRole('button', { name: 'Reject with feedback' }));
    expect(bridge.resolveProposal).toHaveBeenCalledWith({
      sessionId: 's1', turnId: 't1', proposalId: 'p1', version: 1, approve: false, feedback: 'Add a rollback step.',
    });
    expect(await within(card).findByText('Rejected — the agent revises the goal.')).toBeInTheDocument();
    expect(within(card).getByLabelText('Feedback')).toHaveTextContent('Add a rollback step.');
  });

  it('allows a reject without feedback', async () => {
    const user = setup({ proposals: [proposalRaw('p1', 's1')] });
    const card = await screen.findByRole('region', { name: /^Plan:/ });
    await user.click(within(card).getByRole('button', { name: 'Reject' }));
    expect(bridge.resolveProposal).toHaveBeenCalledWith(expect.not.objectContaining({ feedback: expect.anything() }));
    expect(await within(card).findByText(/^Rejected/)).toBeInTheDocument();
  });

  it('a stale decision fails closed: code and next step shown, no buttons, Check again re-reads', async () => {
    const user = setup({ proposals: [proposalRaw('p1', 's1')] });
    const card = await screen.findByRole('region', { name: /^Plan:/ });
    // The turn was stopped in another window; this one missed the event.
    backend.proposals[0]!.state = 'cancelled';
    await user.click(within(card).getByRole('button', { name: 'Approve' }));
    const status = await within(card).findByRole('status');
    expect(status).toHaveTextContent('Not applied');
    expect(within(status).getByText('PLAN_APPROVAL_STALE')).toBeInTheDocument();
    expect(status).toHaveTextContent('this decision is out of date and was not applied');
    expect(status).toHaveTextContent('Check what is waiting now');
    expect(within(card).queryByRole('button', { name: /Approve|Reject/ })).not.toBeInTheDocument();
    expect(status).toHaveFocus();
    // A newer version waits now: checking again shows it instead.
    backend.proposals.push(proposalRaw('p2', 's1', { version: 2, title: 'Add a login form, revised' }));
    await user.click(within(status).getByRole('button', { name: 'Check what is waiting' }));
    expect(await screen.findByRole('region', { name: 'Plan: Add a login form, revised' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Plan: Add a login form' })).not.toBeInTheDocument();
  });

  it('an interrupted proposal cannot be approved and says so', async () => {
    const user = setup({ proposals: [proposalRaw('p1', 's1')] });
    const card = await screen.findByRole('region', { name: /^Plan:/ });
    backend.proposals[0]!.state = 'interrupted';
    await user.click(within(card).getByRole('button', { name: 'Approve' }));
    const status = await within(card).findByRole('status');
    expect(within(status).getByText('PLAN_APPROVAL_INTERRUPTED')).toBeInTheDocument();
    expect(status).toHaveTextContent('ask the agent to continue from it');
  });

  it('keeps the buttons after an error that may pass, with the code shown', async () => {
    const user = setup({ proposals: [proposalRaw('p1', 's1')] });
    const card = await screen.findByRole('region', { name: /^Plan:/ });
    bridge.resolveProposal.mockRejectedValueOnce(new BridgeError('STORAGE_UNAVAILABLE', 'the database is busy; try again'));
    await user.click(within(card).getByRole('button', { name: 'Approve' }));
    expect(await within(card).findByRole('alert')).toHaveTextContent('STORAGE_UNAVAILABLE the database is busy; try again');
    expect(within(card).getByRole('button', { name: 'Approve' })).toBeEnabled();
  });

  it('a proposal settled elsewhere (Stop, another window) turns into its outcome', async () => {
    setup({ proposals: [proposalRaw('p1', 's1')] });
    const card = await screen.findByRole('region', { name: /^Plan:/ });
    emit('agent:proposal', { ...proposalRaw('p1', 's1'), state: 'cancelled' });
    expect(within(card).getByRole('status')).toHaveTextContent(
      'Cancelled — the turn was stopped before a decision. The plan is kept at .pi/plan/add-a-login-form-1.md.',
    );
    expect(within(card).queryByRole('button', { name: /Approve|Reject/ })).not.toBeInTheDocument();
    expect(within(card).queryByRole('region', { name: 'Plan document' })).not.toBeInTheDocument();
    // A late, stale "pending" never brings it back.
    emit('agent:proposal', proposalRaw('p1', 's1'));
    expect(within(card).queryByRole('button', { name: 'Approve' })).not.toBeInTheDocument();
  });

  it('shows only the session being viewed, and clears outcomes when the next turn starts', async () => {
    setup();
    await waitFor(() => expect(bridge.proposals).toHaveBeenCalledWith('s1'));
    emit('agent:proposal', proposalRaw('p9', 's2'));
    expect(screen.queryByRole('region', { name: /^Plan:/ })).not.toBeInTheDocument();
    emit('agent:proposal', proposalRaw('p1', 's1'));
    const card = await screen.findByRole('region', { name: /^Plan:/ });
    emit('agent:proposal', { ...proposalRaw('p1', 's1'), state: 'approved', permissionMode: 'ask' });
    expect(card).toHaveTextContent('Approved — continuing in Agent mode with Ask.');
    emit('agent:turn', { sessionId: 's1', turnId: 't2', state: 'running' });
    expect(screen.queryByRole('region', { name: /^Plan:/ })).not.toBeInTheDocument();
  });
});

describe('Question card', () => {
  it('renders every question with its options, descriptions and a free-text field', async () => {
    setup({ questions: [questionRaw('q1', 's1', [dbQuestion, targets, notes])] });
    const card = await screen.findByRole('region', { name: 'The agent asks 3 questions' });
    const db = within(card).getByRole('group', { name: 'Which database?' });
    expect(within(db).getByRole('radio', { name: 'SQLite' })).toHaveAccessibleDescription('One file, no server');
    expect(within(db).getByText('Choose one.')).toBeInTheDocument();
    const t = within(card).getByRole('group', { name: 'Which targets?' });
    expect(within(t).getAllByRole('checkbox')).toHaveLength(3);
    expect(within(card).getByRole('group', { name: 'Anything else?' })).toContainElement(within(card).getByRole('textbox', { name: 'Your answer' }));
    expect(within(card).getByText(/Stop ends the turn and skips the questions/)).toBeInTheDocument();
    expect(within(db).getByRole('radio', { name: 'SQLite' })).toHaveFocus();
  });

  it('submits a single choice, several choices and free text in question order', async () => {
    const user = setup({ questions: [questionRaw('q1', 's1', [dbQuestion, targets, notes])] });
    const card = await screen.findByRole('region', { name: /The agent asks/ });
    await user.click(within(card).getByRole('radio', { name: 'Postgres' }));
    await user.click(within(card).getByRole('checkbox', { name: 'windows' }));
    await user.click(within(card).getByRole('checkbox', { name: 'linux' }));
    await user.type(within(card).getAllByRole('textbox', { name: 'Or answer in your own words' })[0]!, 'version 16');
    await user.type(within(card).getByRole('textbox', { name: 'Your answer' }), 'Keep it small.');
    await user.click(within(card).getByRole('button', { name: 'Submit answers' }));
    expect(bridge.answerQuestion).toHaveBeenCalledWith('s1', 'q1', [
      { selected: ['Postgres'], text: 'version 16' },
      { selected: ['linux', 'windows'], text: '' },
      { selected: [], text: 'Keep it small.' },
    ]);
    const status = await within(card).findByRole('status');
    expect(status).toHaveTextContent('Answered.');
    expect(status).toHaveTextContent('Postgres — version 16');
    expect(status).toHaveTextContent('linux, windows');
    expect(within(card).queryByRole('radio')).not.toBeInTheDocument();
  });

  it('works from the keyboard: arrows move, Space toggles, Enter submits', async () => {
    const user = setup({ questions: [questionRaw('q1', 's1', [targets])] });
    const card = await screen.findByRole('region', { name: 'The agent asks' });
    expect(within(card).getByRole('checkbox', { name: 'linux' })).toHaveFocus();
    await user.keyboard('{ArrowDown}');
    expect(within(card).getByRole('checkbox', { name: 'macos' })).toHaveFocus();
    await user.keyboard(' ');
    await user.keyboard('{ArrowDown} ');
    expect(within(card).getByRole('checkbox', { name: 'windows' })).toBeChecked();
    await user.keyboard('{ArrowDown}');
    expect(within(card).getByRole('checkbox', { name: 'linux' })).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(bridge.answerQuestion).toHaveBeenCalledWith('s1', 'q1', [{ selected: ['macos', 'windows'], text: '' }]);
    expect(await within(card).findByRole('status')).toHaveFocus();
  });

  it('a single choice follows the arrow keys and can be cleared', async () => {
    const user = setup({ questions: [questionRaw('q1', 's1', [dbQuestion])] });
    const card = await screen.findByRole('region', { name: 'The agent asks' });
    await user.keyboard('{ArrowDown}');
    expect(within(card).getByRole('radio', { name: 'Postgres' })).toBeChecked();
    expect(within(card).getByRole('radio', { name: 'Postgres' })).toHaveFocus();
    await user.click(within(card).getByRole('button', { name: 'Clear choice' }));
    expect(within(card).getByRole('radio', { name: 'Postgres' })).not.toBeChecked();
    await user.type(within(card).getByRole('textbox', { name: 'Or answer in your own words' }), 'Whatever is simplest{Control>}{Enter}{/Control}');
    expect(bridge.answerQuestion).toHaveBeenCalledWith('s1', 'q1', [{ selected: [], text: 'Whatever is simplest' }]);
  });

  it('Skip answers nothing, and the card says it was skipped', async () => {
    const user = setup({ questions: [questionRaw('q1', 's1', [dbQuestion, notes])] });
    const card = await screen.findByRole('region', { name: /The agent asks/ });
    await user.click(within(card).getByRole('radio', { name: 'SQLite' }));
    await user.click(within(card).getByRole('button', { name: 'Skip' }));
    expect(bridge.answerQuestion).toHaveBeenCalledWith('s1', 'q1', []);
    expect(await within(card).findByRole('status')).toHaveTextContent(/^Skipped\.$/);
    await user.click(within(card).getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByRole('region', { name: /question/i })).not.toBeInTheDocument();
  });

  it('Stop skips the questions: the card turns into that outcome', async () => {
    setup({ questions: [questionRaw('q1', 's1', [dbQuestion])] });
    const card = await screen.findByRole('region', { name: 'The agent asks' });
    emit('agent:question', { ...questionRaw('q1', 's1', [dbQuestion]), state: 'skipped', answers: [{ selected: [], text: '' }] });
    expect(within(card).getByRole('status')).toHaveTextContent('Skipped — the turn was stopped before an answer.');
    expect(within(card).queryByRole('button', { name: /Submit|Skip/ })).not.toBeInTheDocument();
    expect(card).toHaveAccessibleName('Question');
  });

  it('answered in another window: the answers appear and the buttons go', async () => {
    setup({ questions: [questionRaw('q1', 's1', [dbQuestion])] });
    const card = await screen.findByRole('region', { name: 'The agent asks' });
    emit('agent:question', { ...questionRaw('q1', 's1', [dbQuestion]), state: 'answered', answers: [{ selected: ['SQLite'], text: '' }] });
    expect(within(card).getByRole('status')).toHaveTextContent('Answered.');
    expect(within(card).getByRole('status')).toHaveTextContent('SQLite');
  });

  it('an answer refused as no longer waiting closes the card with the code', async () => {
    const user = setup({ questions: [questionRaw('q1', 's1', [dbQuestion])] });
    const card = await screen.findByRole('region', { name: 'The agent asks' });
    backend.questions[0]!.state = 'skipped';
    await user.click(within(card).getByRole('button', { name: 'Submit answer' }));
    const status = await within(card).findByRole('status');
    expect(within(status).getByText('NOT_FOUND')).toBeInTheDocument();
    expect(status).toHaveTextContent('answered in another window, or its turn was stopped');
    expect(within(card).queryByRole('button', { name: /Submit/ })).not.toBeInTheDocument();
  });

  it('keeps pending questions across a reload of the window', async () => {
    setup({ questions: [questionRaw('q1', 's1', [notes]), questionRaw('q2', 's2', [dbQuestion])] });
    expect(await screen.findByRole('region', { name: 'The agent asks' })).toBeInTheDocument();
    expect(screen.getAllByRole('region', { name: /asks/ })).toHaveLength(1);
    expect(bridge.pendingQuestions).toHaveBeenCalledWith('s1');
  });
});
