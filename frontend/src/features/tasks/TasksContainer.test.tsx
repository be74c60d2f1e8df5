import { act, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BridgeError } from '../../bridge/errors';
import * as norm from '../../bridge/normalize';
import type { TaskOutput } from '../../bridge/types';
import { NOW, bridgeModule as bridge, resetFakeBridge, type FakeBackend } from '../../test/fakeBridge';
import { renderWithData } from '../../test/render';
import { TasksContainer } from './TasksContainer';
import { TasksProvider, useTasks, type TasksApi } from './TasksContext';

vi.mock('../../bridge', () => import('../../test/fakeBridge').then((m) => m.bridgeModule));

let backend: FakeBackend;

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
  vi.setSystemTime(NOW);
  backend = resetFakeBridge();
});

afterEach(() => {
  vi.clearAllTimers();
});

/** A raw bgtask.Task as Go sends it. */
function raw(id: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { id, sessionId: 's1', command: `npm run ${id}`, state: 'running', startedAt: new Date(NOW - 5_000).toISOString(), endedAt: '0001-01-01T00:00:00Z', ...extra };
}

function ended(id: string, state: 'exited' | 'failed' | 'stopped', exitCode?: number, extra: Record<string, unknown> = {}) {
  return raw(id, { state, endedAt: new Date(Date.now()).toISOString(), ...(exitCode === undefined ? {} : { exitCode }), ...extra });
}

function output(id: string, stdout: string, stderr = '', state = 'running'): TaskOutput {
  return norm.taskOutput({ task: raw(id, { state }), stdout: { text: stdout, totalBytes: stdout.length }, stderr: { text: stderr, totalBytes: stderr.length } });
}

/** Runs timers and lets settled promises reach React. */
async function advance(ms = 0) {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
}

function emit(event: string, payload: unknown) {
  act(() => backend.emit(event, payload));
}

let api: TasksApi | null = null;
function Spy() {
  api = useTasks();
  return null;
}

function Harness({ sessionId = 's1' }: { sessionId?: string }) {
  return (
    <TasksProvider>
      <Spy />
      <TasksContainer key={sessionId} sessionId={sessionId} />
    </TasksProvider>
  );
}

async function mount(sessionId = 's1') {
  const view = renderWithData(<Harness sessionId={sessionId} />);
  await advance();
  return view;
}

const dock = () => screen.getByRole('region', { name: 'Todos and background tasks' });
const queryDock = () => screen.queryByRole('region', { name: 'Todos and background tasks' });
const row = (command: string) => screen.getByRole('listitem', { name: command });
const queryRow = (command: string) => screen.queryByRole('listitem', { name: command });
const tab = (name: 'Todos' | 'Tasks') => screen.getByRole('tab', { name: new RegExp(`^${name}`) });
const disclosure = () => screen.getByRole('button', { name: 'Show todos and tasks' });
const click = (el: HTMLElement) => act(() => void fireEvent.click(el));

function todosEvent(todos: Array<Record<string, unknown>>, sessionId = 's1') {
  emit('agent:todos', { sessionId, turnId: 't1', todos });
}

const threeTodos = [
  { content: 'Read the code', status: 'completed' },
  { content: 'Run the tests', status: 'in_progress', activeForm: 'Running the tests' },
  { content: 'Write the fix', status: 'pending' },
];

describe('TasksContainer: what it shows', () => {
  it('renders nothing when the session has no todos and no tasks, after reading both', async () => {
    const { container } = await mount();
    expect(bridge.tasks).toHaveBeenCalledWith('s1');
    expect(bridge.todos).toHaveBeenCalledWith('s1');
    expect(container).toBeEmptyDOMElement();
  });

  it('todos alone: no tab list, the progress in the header, the active form of the running step', async () => {
    backend = resetFakeBridge({ todos: { s1: threeTodos } });
    await mount();
    expect(screen.queryByRole('tablist')).not.toBeInTheDocument();
    const header = dock();
    expect(within(header).getByTitle('1 of 3 todos done')).toHaveTextContent('1/3');
    const items = within(screen.getByRole('list', { name: 'Todos' })).getAllByRole('listitem');
    expect(items.map((li) => li.textContent)).toEqual(['Done: Read the code', 'In progress: Running the tests', 'To do: Write the fix']);
    expect(screen.getByRole('region', { name: 'Todos' })).toBeInTheDocument();
  });

  it('tasks alone: no tab list, the running count, command, state and duration per row', async () => {
    backend = resetFakeBridge({ tasks: [raw('dev'), raw('watch')] });
    await mount();
    expect(screen.queryByRole('tablist')).not.toBeInTheDocument();
    expect(dock()).toHaveTextContent('2 running');
    expect(screen.queryByTitle(/todos done/)).not.toBeInTheDocument();
    const r = within(row('npm run dev'));
    expect(r.getByText('running')).toBeInTheDocument();
    expect(r.getByText('5s')).toBeInTheDocument();
    expect(r.getByRole('button', { name: 'Stop' })).toBeInTheDocument();
    expect(r.queryByRole('button', { name: 'Remove' })).not.toBeInTheDocument();
    await advance(1_000);
    expect(r.getByText('6s')).toBeInTheDocument();
  });

  it('shows the exit code, a stop and a failure without exit status, with the time each ran', async () => {
    await mount();
    emit('task:started', raw('ok'));
    emit('task:started', raw('bad'));
    emit('task:started', raw('halt'));
    emit('task:started', raw('lost'));
    await advance(2_000);
    emit('task:exited', ended('ok', 'exited', 0));
    emit('task:exited', ended('bad', 'failed', 2));
    emit('task:exited', ended('halt', 'stopped', -1));
    emit('task:exited', ended('lost', 'failed', undefined, { error: 'wait: no child processes' }));
    expect(within(row('npm run ok')).getByText('exit 0')).toBeInTheDocument();
    expect(within(row('npm run ok')).getByText('7s')).toBeInTheDocument();
    expect(within(row('npm run bad')).getByText('exit 2')).toBeInTheDocument();
    expect(within(row('npm run halt')).getByText('stopped')).toBeInTheDocument();
    expect(within(row('npm run lost')).getByText('failed')).toHaveAttribute('title', 'wait: no child processes');
    expect(within(row('npm run ok')).getByRole('button', { name: 'Remove' })).toBeInTheDocument();
    expect(within(row('npm run ok')).queryByRole('button', { name: 'Stop' })).not.toBeInTheDocument();
    expect(dock()).not.toHaveTextContent('running');
  });

  it('the panel scrolls within min(200px, 24vh)', async () => {
    backend = resetFakeBridge({ tasks: Array.from({ length: 10 }, (_, i) => raw(`t${i}`)) });
    await mount();
    expect(screen.getByRole('region', { name: 'Background tasks' })).toHaveStyle({ maxHeight: 'min(200px, 24vh)', overflowY: 'auto' });
  });

  it('ignores events of other sessions', async () => {
    await mount();
    emit('task:started', raw('other', { sessionId: 's2' }));
    todosEvent(threeTodos, 's2');
    expect(queryDock()).not.toBeInTheDocument();
  });
});

describe('TasksContainer: tabs', () => {
  it('shows tabs only when both sides have content; todos first; the header keeps both summaries', async () => {
    backend = resetFakeBridge({ todos: { s1: threeTodos }, tasks: [raw('dev')] });
    await mount();
    expect(screen.getByRole('tablist', { name: 'Todos and background tasks' })).toBeInTheDocument();
    expect(tab('Todos')).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('tabpanel', { name: 'Todos' })).toBeInTheDocument();
    expect(dock()).toHaveTextContent('1/3');
    expect(dock()).toHaveTextContent('1 running');
    click(tab('Tasks'));
    expect(screen.getByRole('tabpanel', { name: 'Tasks' })).toContainElement(row('npm run dev'));
    // The todos side empties: the tab list goes and the tasks panel renders on its own.
    todosEvent([]);
    expect(screen.queryByRole('tablist')).not.toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Background tasks' })).toBeInTheDocument();
  });

  it('a new task never steals the tab: a count badge on Tasks instead, cleared by entering it', async () => {
    backend = resetFakeBridge({ todos: { s1: threeTodos } });
    await mount();
    emit('task:started', raw('one'));
    expect(tab('Todos')).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('list', { name: 'Todos' })).toBeInTheDocument();
    expect(tab('Tasks')).toHaveAccessibleName('Tasks 1 new');
    emit('task:started', raw('two'));
    expect(tab('Tasks')).toHaveAccessibleName('Tasks 2 new');
    click(tab('Tasks'));
    expect(tab('Tasks')).toHaveAccessibleName('Tasks');
    expect(row('npm run two')).toBeInTheDocument();
    // On screen, new tasks raise no badge.
    emit('task:started', raw('three'));
    expect(tab('Tasks')).toHaveAccessibleName('Tasks');
    click(tab('Todos'));
    emit('task:started', raw('four'));
    expect(tab('Tasks')).toHaveAccessibleName('Tasks 1 new');
  });

  it('tasks already running when the session is read raise no badge', async () => {
    backend = resetFakeBridge({ todos: { s1: threeTodos }, tasks: [raw('dev')] });
    await mount();
    expect(tab('Tasks')).toHaveAccessibleName('Tasks');
  });

  it('collapsing hides only the panel; clicking a tab while collapsed expands; new tasks badge the collapsed tab', async () => {
    backend = resetFakeBridge({ todos: { s1: threeTodos }, tasks: [raw('dev')] });
    await mount();
    click(tab('Tasks'));
    expect(disclosure()).toHaveAttribute('aria-expanded', 'true');
    click(disclosure());
    expect(disclosure()).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('tabpanel')).not.toBeInTheDocument();
    expect(tab('Todos')).toBeInTheDocument();
    expect(dock()).toHaveTextContent('1/3');
    expect(dock()).toHaveTextContent('1 running');
    emit('task:started', raw('new'));
    expect(tab('Tasks')).toHaveAccessibleName('Tasks 1 new');
    click(tab('Tasks'));
    expect(disclosure()).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByRole('tabpanel', { name: 'Tasks' })).toContainElement(row('npm run new'));
    expect(tab('Tasks')).toHaveAccessibleName('Tasks');
    click(disclosure());
    click(tab('Todos'));
    expect(screen.getByRole('tabpanel', { name: 'Todos' })).toBeInTheDocument();
  });

  it('arrow keys move between the tabs', async () => {
    backend = resetFakeBridge({ todos: { s1: threeTodos }, tasks: [raw('dev')] });
    await mount();
    act(() => void fireEvent.keyDown(tab('Todos'), { key: 'ArrowRight' }));
    expect(tab('Tasks')).toHaveAttribute('aria-selected', 'true');
    expect(tab('Tasks')).toHaveFocus();
  });

  it('remembers the tab per session; a fallback the container picked does not overwrite the choice', async () => {
    backend = resetFakeBridge({ todos: { s1: threeTodos, s2: threeTodos }, tasks: [raw('dev'), raw('api', { sessionId: 's2' })] });
    const view = await mount('s1');
    click(tab('Tasks'));
    view.rerender(<Harness sessionId="s2" />);
    await advance();
    expect(tab('Todos')).toHaveAttribute('aria-selected', 'true');
    view.rerender(<Harness sessionId="s1" />);
    await advance();
    expect(tab('Tasks')).toHaveAttribute('aria-selected', 'true');
    // s2: the user picks Todos; the todos empty, so the container falls back to Tasks on its own.
    view.rerender(<Harness sessionId="s2" />);
    await advance();
    click(tab('Todos'));
    todosEvent([], 's2');
    expect(screen.getByRole('region', { name: 'Background tasks' })).toBeInTheDocument();
    todosEvent(threeTodos, 's2');
    expect(tab('Tasks')).toHaveAttribute('aria-selected', 'true');
    view.rerender(<Harness sessionId="s1" />);
    await advance();
    view.rerender(<Harness sessionId="s2" />);
    await advance();
    expect(tab('Todos')).toHaveAttribute('aria-selected', 'true');
  });
});

describe('TasksContainer: finished tasks', () => {
  it('a finished task stays 10 s after the UI saw it end, then leaves; an empty container renders nothing', async () => {
    await mount();
    emit('task:started', raw('build'));
    await advance(30_000);
    emit('task:exited', ended('build', 'failed', 1));
    await advance(9_999);
    expect(within(row('npm run build')).getByText('exit 1')).toBeInTheDocument();
    await advance(1);
    expect(queryRow('npm run build')).not.toBeInTheDocument();
    expect(queryDock()).not.toBeInTheDocument();
  });

  it('tasks already finished when the session is first read never appear', async () => {
    backend = resetFakeBridge({ tasks: [ended('old', 'exited', 0), raw('live')] });
    await mount();
    expect(queryRow('npm run old')).not.toBeInTheDocument();
    expect(row('npm run live')).toBeInTheDocument();
    emit('task:exited', ended('live', 'exited', 0));
    expect(within(row('npm run live')).getByText('exit 0')).toBeInTheDocument();
    await advance(10_000);
    expect(queryDock()).not.toBeInTheDocument();
  });

  it('an ended task whose row the user cannot see yet still leaves 10 s after the end was observed', async () => {
    const view = await mount('s2');
    emit('task:started', raw('bg'));
    await advance(3_000);
    emit('task:exited', ended('bg', 'exited', 0));
    await advance(4_000);
    view.rerender(<Harness sessionId="s1" />);
    await advance();
    expect(row('npm run bg')).toBeInTheDocument();
    await advance(6_000);
    expect(queryRow('npm run bg')).not.toBeInTheDocument();
  });

  it('an open output preview pins its row past the grace window; closing it lets the row go', async () => {
    bridge.taskOutput.mockImplementation(async () => output('dev', 'listening on :3000', '', 'exited'));
    await mount();
    emit('task:started', raw('dev'));
    emit('task:exited', ended('dev', 'exited', 0));
    click(within(row('npm run dev')).getByRole('button', { name: 'Output' }));
    await advance(60_000);
    expect(within(row('npm run dev')).getByLabelText('stdout')).toHaveTextContent('listening on :3000');
    click(within(row('npm run dev')).getByRole('button', { name: 'Output' }));
    await advance();
    expect(queryRow('npm run dev')).not.toBeInTheDocument();
  });
});

describe('TasksContainer: stop and remove', () => {
  it('Remove is offered only for finished tasks and removes the row for this session', async () => {
    await mount();
    emit('task:started', raw('a'));
    expect(within(row('npm run a')).queryByRole('button', { name: 'Remove' })).not.toBeInTheDocument();
    emit('task:exited', ended('a', 'stopped'));
    click(within(row('npm run a')).getByRole('button', { name: 'Remove' }));
    await advance();
    expect(bridge.removeTask).toHaveBeenCalledWith('s1', 'a');
    expect(queryRow('npm run a')).not.toBeInTheDocument();
  });

  it('the state layer refuses to remove a live task, stopping included, without asking the host', async () => {
    await mount();
    emit('task:started', raw('a'));
    await expect(api!.remove('s1', 'a')).rejects.toMatchObject({ code: 'BACKGROUND_TASK_RUNNING', details: { state: 'running' } });
    click(within(row('npm run a')).getByRole('button', { name: 'Stop' }));
    await advance();
    expect(within(row('npm run a')).getByRole('button', { name: 'Stopping…' })).toBeDisabled();
    await expect(api!.remove('s1', 'a')).rejects.toMatchObject({ code: 'BACKGROUND_TASK_RUNNING', details: { state: 'stopping' } });
    await expect(api!.remove('s1', 'nope')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(bridge.removeTask).not.toHaveBeenCalled();
    expect(row('npm run a')).toBeInTheDocument();
  });

  it('a failed stop is shown and can be retried', async () => {
    bridge.stopTask.mockRejectedValueOnce(new BridgeError('BACKGROUND_TASK_STOP_FAILED', 'could not stop background task "a"; try again'));
    await mount();
    emit('task:started', raw('a'));
    click(within(row('npm run a')).getByRole('button', { name: 'Stop' }));
    await advance();
    const alert = within(row('npm run a')).getByRole('alert');
    expect(alert).toHaveTextContent('Could not stop the task');
    expect(alert).toHaveTextContent('BACKGROUND_TASK_STOP_FAILED');
    expect(within(row('npm run a')).getByText('running')).toBeInTheDocument();
    click(within(row('npm run a')).getByRole('button', { name: 'Stop' }));
    await advance();
    expect(bridge.stopTask).toHaveBeenCalledTimes(2);
    expect(within(row('npm run a')).queryByRole('alert')).not.toBeInTheDocument();
    expect(within(row('npm run a')).getByText('stopping…')).toBeInTheDocument();
    expect(dock()).toHaveTextContent('1 running');
    emit('task:exited', ended('a', 'stopped'));
    expect(within(row('npm run a')).getByText('stopped')).toBeInTheDocument();
  });

  it('a failed remove is shown and can be retried', async () => {
    bridge.removeTask.mockRejectedValueOnce(new BridgeError('INTERNAL', 'registry unavailable'));
    await mount();
    emit('task:started', raw('a'));
    emit('task:exited', ended('a', 'exited', 0));
    click(within(row('npm run a')).getByRole('button', { name: 'Remove' }));
    await advance();
    expect(within(row('npm run a')).getByRole('alert')).toHaveTextContent('Could not remove the task: registry unavailable');
    click(within(row('npm run a')).getByRole('button', { name: 'Remove' }));
    await advance();
    expect(queryRow('npm run a')).not.toBeInTheDocument();
  });

  it('a failed read of the task list is shown with a retry', async () => {
    bridge.tasks.mockRejectedValueOnce(new BridgeError('INTERNAL', 'host is busy'));
    backend.tasks.push(raw('dev'));
    await mount();
    expect(screen.getByRole('alert')).toHaveTextContent('Could not load the background tasks: host is busy');
    click(screen.getByRole('button', { name: 'Retry' }));
    await advance();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(row('npm run dev')).toBeInTheDocument();
    expect(bridge.todos).toHaveBeenCalledTimes(1);
  });
});

describe('TasksContainer: output preview', () => {
  function deferredReads() {
    const pending: Array<{ id: string; resolve: (o: TaskOutput) => void; reject: (e: unknown) => void }> = [];
    bridge.taskOutput.mockImplementation(
      (_s, id) =>
        new Promise<TaskOutput>((resolve, reject) => {
          pending.push({ id, resolve, reject });
        }),
    );
    return pending;
  }

  async function withTasks(...ids: string[]) {
    await mount();
    for (const id of ids) emit('task:started', raw(id));
  }

  const openOutput = (id: string) => click(within(row(`npm run ${id}`)).getByRole('button', { name: 'Output' }));

  it('refreshes a running task one second after the previous read settled, and stops when it ended', async () => {
    const reads = deferredReads();
    await withTasks('dev');
    openOutput('dev');
    expect(reads).toHaveLength(1);
    await advance(5_000);
    expect(reads).toHaveLength(1); // no read while the previous one is pending
    await act(async () => reads[0]!.resolve(output('dev', 'line 1')));
    expect(within(row('npm run dev')).getByLabelText('stdout')).toHaveTextContent('line 1');
    await advance(999);
    expect(reads).toHaveLength(1);
    await advance(1);
    expect(reads).toHaveLength(2);
    await act(async () => reads[1]!.resolve(output('dev', 'line 1\nline 2', 'warn', 'exited')));
    expect(within(row('npm run dev')).getByLabelText('stderr')).toHaveTextContent('warn');
    await advance(5_000);
    expect(reads).toHaveLength(2);
  });

  it('only one preview is open; a late read of the previous one is ignored', async () => {
    const reads = deferredReads();
    await withTasks('a', 'b');
    openOutput('a');
    openOutput('b');
    expect(within(row('npm run a')).getByRole('button', { name: 'Output' })).toHaveAttribute('aria-expanded', 'false');
    expect(within(row('npm run b')).getByRole('button', { name: 'Output' })).toHaveAttribute('aria-expanded', 'true');
    expect(reads.map((r) => r.id)).toEqual(['a', 'b']);
    await act(async () => reads[1]!.resolve(output('b', 'from b')));
    await act(async () => reads[0]!.resolve(output('a', 'from a')));
    expect(screen.getAllByLabelText('stdout')).toHaveLength(1);
    expect(within(row('npm run b')).getByLabelText('stdout')).toHaveTextContent('from b');
    expect(screen.queryByText('from a')).not.toBeInTheDocument();
    // The superseded read schedules nothing: only b keeps refreshing.
    await advance(1_000);
    expect(reads.map((r) => r.id)).toEqual(['a', 'b', 'b']);
  });

  it('a read settling after the preview was switched away and back is still only the current one', async () => {
    const reads = deferredReads();
    await withTasks('a', 'b');
    openOutput('a');
    openOutput('b');
    openOutput('a');
    await act(async () => reads[0]!.resolve(output('a', 'stale a')));
    expect(screen.queryByText('stale a')).not.toBeInTheDocument();
    await act(async () => reads[2]!.resolve(output('a', 'fresh a')));
    expect(within(row('npm run a')).getByLabelText('stdout')).toHaveTextContent('fresh a');
  });

  it('shows at most 8,000 stdout and 4,000 stderr characters, the end of each', async () => {
    const out = 'o'.repeat(2_000) + 'x'.repeat(8_000);
    const err = 'e'.repeat(1_000) + 'y'.repeat(4_000);
    bridge.taskOutput.mockImplementation(async () => output('dev', out, err, 'exited'));
    await withTasks('dev');
    openOutput('dev');
    await advance();
    const stdout = within(row('npm run dev')).getByLabelText('stdout');
    const stderr = within(row('npm run dev')).getByLabelText('stderr');
    expect(stdout.textContent).toBe('x'.repeat(8_000));
    expect(stderr.textContent).toBe('y'.repeat(4_000));
    expect(row('npm run dev')).toHaveTextContent('last 8,000 characters');
    expect(row('npm run dev')).toHaveTextContent('last 4,000 characters');
  });

  it('does not read while collapsed or on the other tab, and reads again when shown', async () => {
    bridge.taskOutput.mockImplementation(async () => output('dev', 'tick'));
    backend.todos.s1 = threeTodos;
    await withTasks('dev');
    click(tab('Tasks'));
    openOutput('dev');
    await advance(2_000);
    expect(bridge.taskOutput).toHaveBeenCalledTimes(3);
    click(disclosure());
    await advance(10_000);
    expect(bridge.taskOutput).toHaveBeenCalledTimes(3);
    click(disclosure());
    await advance();
    expect(bridge.taskOutput).toHaveBeenCalledTimes(4);
    click(tab('Todos'));
    await advance(10_000);
    expect(bridge.taskOutput).toHaveBeenCalledTimes(4);
  });

  it('a failed read is shown, stops refreshing and can be retried', async () => {
    bridge.taskOutput.mockRejectedValueOnce(new BridgeError('NOT_FOUND', 'background task "dev" not found in this session'));
    bridge.taskOutput.mockImplementation(async () => output('dev', 'back again', '', 'exited'));
    await withTasks('dev');
    openOutput('dev');
    await advance();
    const alert = within(row('npm run dev')).getByRole('alert');
    expect(alert).toHaveTextContent('Could not read the output');
    expect(alert).toHaveTextContent('NOT_FOUND');
    await advance(5_000);
    expect(bridge.taskOutput).toHaveBeenCalledTimes(1);
    click(within(alert).getByRole('button', { name: 'Retry' }));
    await advance();
    expect(bridge.taskOutput).toHaveBeenCalledTimes(2);
    expect(within(row('npm run dev')).queryByRole('alert')).not.toBeInTheDocument();
    expect(within(row('npm run dev')).getByLabelText('stdout')).toHaveTextContent('back again');
  });
});
