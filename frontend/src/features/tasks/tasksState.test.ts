import { describe, expect, it } from 'vitest';
import type { BackgroundTask, Todo } from '../../bridge/types';
import {
  GRACE_MS,
  emptySession,
  formatDuration,
  initialTasksState,
  nextExpiry,
  removeRefusal,
  tailChars,
  tasksReducer,
  todoProgress,
  visibleTasks,
  type TasksAction,
  type TasksState,
} from './tasksState';

const T0 = 1_000_000;

function task(id: string, state = 'running', extra: Partial<BackgroundTask> = {}): BackgroundTask {
  return { id, sessionId: 's1', command: `cmd ${id}`, state, exitCode: null, error: '', startedAt: T0 - 1000, endedAt: 0, removed: false, ...extra };
}

const todo = (content: string, status: Todo['status'] = 'pending'): Todo => ({ content, status, activeForm: '' });

function run(...actions: TasksAction[]): TasksState {
  return actions.reduce(tasksReducer, initialTasksState);
}

const s1 = (st: TasksState) => st.sessions.s1 ?? emptySession;
const ids = (st: TasksState, now: number) => visibleTasks(s1(st), now).map((t) => t.task.id);

describe('tasks reducer: what has a row', () => {
  it('never shows tasks that were already finished when first listed', () => {
    const st = run({ type: 'listed', sessionId: 's1', now: T0, tasks: [task('old', 'exited', { exitCode: 0 }), task('live')] });
    expect(ids(st, T0)).toEqual(['live']);
    // A late event or list for a history task does not bring it in either.
    const again = [
      { type: 'exited', task: task('old', 'exited'), now: T0 + 1 },
      { type: 'started', task: task('old'), now: T0 + 2 },
      { type: 'listed', sessionId: 's1', now: T0 + 3, tasks: [task('old', 'exited')] },
    ] satisfies TasksAction[];
    expect(ids(again.reduce(tasksReducer, st), T0 + 3)).toEqual(['live']);
  });

  it('keeps a finished task for the grace window after the renderer saw it end', () => {
    const st = run({ type: 'started', task: task('a'), now: T0 }, { type: 'exited', task: task('a', 'exited', { exitCode: 0 }), now: T0 + 500 });
    expect(ids(st, T0 + 500 + GRACE_MS - 1)).toEqual(['a']);
    expect(ids(st, T0 + 500 + GRACE_MS)).toEqual([]);
    expect(nextExpiry(s1(st), T0 + 600)).toBe(T0 + 500 + GRACE_MS);
  });

  it('starts the grace window when a list first shows a known task ended (its event was missed)', () => {
    const st = run({ type: 'started', task: task('a'), now: T0 }, { type: 'listed', sessionId: 's1', now: T0 + 4000, tasks: [task('a', 'failed', { exitCode: 2 })] });
    expect(s1(st).tasks[0]).toMatchObject({ endSeenAt: T0 + 4000, task: { exitCode: 2 } });
  });

  it('an ended task seen by event (even before any list) gets its grace window, and a stale list does not revive it', () => {
    const st = run(
      { type: 'exited', task: task('a', 'stopped'), now: T0 },
      { type: 'listed', sessionId: 's1', now: T0 + 10, tasks: [task('a', 'running')] },
    );
    expect(s1(st).tasks).toEqual([{ task: task('a', 'stopped'), endSeenAt: T0 }]);
  });

  it('the open preview pins a finished row past its grace window', () => {
    const st = run(
      { type: 'started', task: task('a'), now: T0 },
      { type: 'exited', task: task('a', 'exited'), now: T0 },
      { type: 'preview', sessionId: 's1', taskId: 'a', now: T0 },
    );
    expect(ids(st, T0 + 60_000)).toEqual(['a']);
    expect(nextExpiry(s1(st), T0)).toBeNull();
    const closed = tasksReducer(st, { type: 'preview', sessionId: 's1', taskId: null, now: T0 + 60_000 });
    expect(ids(closed, T0 + 60_000)).toEqual([]);
  });

  it('refuses removal of a live task in the state layer, including one being stopped', () => {
    let st = run({ type: 'started', task: task('a'), now: T0 }, { type: 'stopping', sessionId: 's1', taskId: 'a', now: T0 });
    expect(s1(st).tasks[0]!.task.state).toBe('stopping');
    expect(removeRefusal(s1(st), 'a')).toBe('stopping');
    st = tasksReducer(st, { type: 'removed', sessionId: 's1', taskId: 'a', now: T0 });
    expect(ids(st, T0)).toEqual(['a']);
    st = tasksReducer(st, { type: 'exited', task: task('a', 'stopped'), now: T0 + 1 });
    expect(removeRefusal(s1(st), 'a')).toBeNull();
    st = tasksReducer(st, { type: 'removed', sessionId: 's1', taskId: 'a', now: T0 + 2 });
    expect(ids(st, T0 + 2)).toEqual([]);
    expect(removeRefusal(s1(st), 'missing')).toBe('not_found');
  });

  it('stopping never overrides a terminal state', () => {
    const st = run({ type: 'exited', task: task('a', 'exited'), now: T0 }, { type: 'stopping', sessionId: 's1', taskId: 'a', now: T0 });
    expect(s1(st).tasks[0]!.task.state).toBe('exited');
  });

  it('keeps sessions apart', () => {
    const st = run({ type: 'started', task: task('a'), now: T0 }, { type: 'started', task: { ...task('b'), sessionId: 's2' }, now: T0 });
    expect(ids(st, T0)).toEqual(['a']);
    expect(visibleTasks(st.sessions.s2!, T0).map((t) => t.task.id)).toEqual(['b']);
  });
});

describe('tasks reducer: tabs and badge', () => {
  const withTodos: TasksAction = { type: 'todos', sessionId: 's1', todos: [todo('one')], now: T0 };

  it('a new task never steals the tab: it raises the badge while the tasks panel is not on screen', () => {
    let st = run(withTodos);
    expect(s1(st).shown).toBe('todos');
    st = tasksReducer(st, { type: 'started', task: task('a'), now: T0 });
    st = tasksReducer(st, { type: 'started', task: task('a'), now: T0 }); // a duplicate event counts once
    st = tasksReducer(st, { type: 'started', task: task('b'), now: T0 });
    expect(s1(st)).toMatchObject({ shown: 'todos', badge: 2, choice: null });
    st = tasksReducer(st, { type: 'select', sessionId: 's1', side: 'tasks', now: T0 });
    expect(s1(st)).toMatchObject({ shown: 'tasks', badge: 0, choice: 'tasks' });
    st = tasksReducer(st, { type: 'started', task: task('c'), now: T0 });
    expect(s1(st).badge).toBe(0);
  });

  it('the only side with content is shown without a badge', () => {
    const st = run({ type: 'started', task: task('a'), now: T0 });
    expect(s1(st)).toMatchObject({ shown: 'tasks', badge: 0 });
  });

  it('counts new tasks while collapsed, and clears the badge when the tasks panel comes on screen', () => {
    let st = run({ type: 'started', task: task('a'), now: T0 }, { type: 'toggle', sessionId: 's1', now: T0 }, { type: 'started', task: task('b'), now: T0 });
    expect(s1(st)).toMatchObject({ shown: 'tasks', collapsed: true, badge: 1 });
    st = tasksReducer(st, { type: 'toggle', sessionId: 's1', now: T0 });
    expect(s1(st)).toMatchObject({ collapsed: false, badge: 0 });
  });

  it('selecting a tab expands a collapsed container', () => {
    const st = run(withTodos, { type: 'started', task: task('a'), now: T0 }, { type: 'toggle', sessionId: 's1', now: T0 }, { type: 'select', sessionId: 's1', side: 'todos', now: T0 });
    expect(s1(st)).toMatchObject({ collapsed: false, shown: 'todos' });
  });

  it('falls back to the other side when the shown side empties, without overwriting the remembered choice', () => {
    let st = run(withTodos, { type: 'started', task: task('a'), now: T0 }, { type: 'select', sessionId: 's1', side: 'todos', now: T0 });
    st = tasksReducer(st, { type: 'todos', sessionId: 's1', todos: [], now: T0 });
    expect(s1(st)).toMatchObject({ shown: 'tasks', choice: 'todos' });
    // Todos come back: the tab on screen stays (nothing steals it); entering the session again restores the choice.
    st = tasksReducer(st, withTodos);
    expect(s1(st)).toMatchObject({ shown: 'tasks', choice: 'todos' });
    st = tasksReducer(st, { type: 'entered', sessionId: 's1', now: T0 });
    expect(s1(st).shown).toBe('todos');
  });

  it('entering restores the remembered tab only when its side has content', () => {
    let st = run(withTodos, { type: 'started', task: task('a'), now: T0 }, { type: 'select', sessionId: 's1', side: 'tasks', now: T0 });
    st = tasksReducer(st, { type: 'exited', task: task('a', 'exited'), now: T0 });
    expect(s1(st).shown).toBe('tasks');
    st = tasksReducer(st, { type: 'tick', sessionId: 's1', now: T0 + GRACE_MS });
    expect(s1(st)).toMatchObject({ shown: 'todos', choice: 'tasks' });
    st = tasksReducer(st, { type: 'entered', sessionId: 's1', now: T0 + GRACE_MS });
    expect(s1(st).shown).toBe('todos');
  });

  it('shows nothing when both sides are empty, and picks the remembered choice when content returns together', () => {
    let st = run(withTodos, { type: 'started', task: task('a'), now: T0 }, { type: 'select', sessionId: 's1', side: 'tasks', now: T0 });
    st = tasksReducer(st, { type: 'todos', sessionId: 's1', todos: [], now: T0 });
    st = tasksReducer(st, { type: 'exited', task: task('a', 'exited'), now: T0 });
    st = tasksReducer(st, { type: 'tick', sessionId: 's1', now: T0 + GRACE_MS });
    expect(s1(st).shown).toBeNull();
    st = tasksReducer(st, { type: 'listed', sessionId: 's1', now: T0 + GRACE_MS, tasks: [task('b')] });
    expect(s1(st).shown).toBe('tasks');
  });

  it('an agent:todos event wins over a slower todos() read', () => {
    const st = run({ type: 'todos', sessionId: 's1', todos: [todo('new')], now: T0 }, { type: 'todosListed', sessionId: 's1', todos: [todo('stale')], now: T0 });
    expect(s1(st).todos.map((t) => t.content)).toEqual(['new']);
    const listed = run({ type: 'todosListed', sessionId: 's1', todos: [todo('first')], now: T0 });
    expect(s1(listed).todos.map((t) => t.content)).toEqual(['first']);
  });
});

describe('helpers', () => {
  it('todoProgress counts completed items', () => {
    expect(todoProgress([todo('a', 'completed'), todo('b', 'in_progress'), todo('c')])).toEqual({ done: 1, total: 3 });
  });
  it('tailChars keeps the last characters without splitting a surrogate pair', () => {
    expect(tailChars('abcdef', 3)).toEqual({ text: 'def', clipped: true });
    expect(tailChars('abc', 3)).toEqual({ text: 'abc', clipped: false });
    expect(tailChars('a😀b😀', 2)).toEqual({ text: 'b😀', clipped: true });
    expect(tailChars('😀😀', 2)).toEqual({ text: '😀😀', clipped: false });
  });
  it('formatDuration', () => {
    expect(formatDuration(4_900)).toBe('4s');
    expect(formatDuration(65_000)).toBe('1m 05s');
    expect(formatDuration(2 * 3_600_000 + 3 * 60_000)).toBe('2h 03m');
    expect(formatDuration(-5)).toBe('0s');
  });
});
