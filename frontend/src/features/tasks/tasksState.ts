// Pure state of the composer's todo + background-task container (spec §5), per session:
// what the host reported, what the renderer observed (when a task ended), and the view
// state (remembered tab, tab on screen, badge, collapsed, open preview). No DOM, no bridge.
import type { BackgroundTask, Todo } from '../../bridge/types';

/** A finished task stays this long after the renderer saw it end. */
export const GRACE_MS = 10_000;
/** The open preview is read again this long after the previous read settled. */
export const REFRESH_MS = 1_000;
export const PREVIEW_STDOUT_CHARS = 8_000;
export const PREVIEW_STDERR_CHARS = 4_000;

export type Side = 'todos' | 'tasks';

const TERMINAL: ReadonlySet<string> = new Set(['exited', 'failed', 'stopped']);

/** Exited, failed or stopped. A stopping task is still live. */
export function isTerminal(state: string): boolean {
  return TERMINAL.has(state);
}

export interface TrackedTask {
  task: BackgroundTask;
  /** Date.now() when the renderer saw the task end; 0 while it runs. */
  endSeenAt: number;
}

export interface SessionTasks {
  /** Tasks this renderer saw running (or saw end), in the order it learnt of them. */
  tasks: TrackedTask[];
  /** Ids already finished when the renderer first listed them: registry history, never shown. */
  history: Record<string, true>;
  /** Ids removed by the user (this session only; not persisted). */
  removed: Record<string, true>;
  todos: Todo[];
  /** An agent:todos event arrived: a slower todos() read must not overwrite it. */
  todosLive: boolean;
  /** The user's own tab choice; automatic picks never overwrite it. */
  choice: Side | null;
  /** The tab on screen (null while there is nothing to show). */
  shown: Side | null;
  collapsed: boolean;
  /** Tasks started while the tasks panel was not on screen. */
  badge: number;
  /** The one task whose output preview is open. */
  preview: string | null;
}

export interface TasksState {
  sessions: Record<string, SessionTasks>;
}

export const initialTasksState: TasksState = { sessions: {} };

export const emptySession: SessionTasks = {
  tasks: [],
  history: {},
  removed: {},
  todos: [],
  todosLive: false,
  choice: null,
  shown: null,
  collapsed: false,
  badge: 0,
  preview: null,
};

export type TasksAction =
  | { type: 'listed'; sessionId: string; tasks: BackgroundTask[]; now: number }
  | { type: 'todosListed'; sessionId: string; todos: Todo[]; now: number }
  | { type: 'todos'; sessionId: string; todos: Todo[]; now: number }
  | { type: 'started'; task: BackgroundTask; now: number }
  | { type: 'exited'; task: BackgroundTask; now: number }
  | { type: 'stopping'; sessionId: string; taskId: string; now: number }
  | { type: 'removed'; sessionId: string; taskId: string; now: number }
  | { type: 'select'; sessionId: string; side: Side; now: number }
  | { type: 'toggle'; sessionId: string; now: number }
  | { type: 'preview'; sessionId: string; taskId: string | null; now: number }
  | { type: 'tick'; sessionId: string; now: number }
  /** The session is opened (again): the remembered tab is shown when its side has content. */
  | { type: 'entered'; sessionId: string; now: number };

/** Tasks that have a row now: not removed, live, within the grace window, or pinned by the preview. */
export function visibleTasks(s: SessionTasks, now: number): TrackedTask[] {
  return s.tasks.filter(
    (t) => !s.removed[t.task.id] && (t.endSeenAt === 0 || now - t.endSeenAt < GRACE_MS || s.preview === t.task.id),
  );
}

function hasSide(s: SessionTasks, side: Side, now: number): boolean {
  return side === 'todos' ? s.todos.length > 0 : visibleTasks(s, now).length > 0;
}

/** When the next finished row leaves (ms since epoch), or null when none will. */
export function nextExpiry(s: SessionTasks, now: number): number | null {
  let next: number | null = null;
  for (const t of visibleTasks(s, now)) {
    if (t.endSeenAt === 0 || s.preview === t.task.id) continue;
    const at = t.endSeenAt + GRACE_MS;
    if (next === null || at < next) next = at;
  }
  return next;
}

/**
 * Applies the tab rules after any change: the tab on screen stays unless its side emptied
 * (then the other side), nothing on screen picks the remembered choice when it has content,
 * and the badge clears once the tasks panel is on screen.
 */
export function settle(s: SessionTasks, now: number): SessionTasks {
  let shown = s.shown !== null && hasSide(s, s.shown, now) ? s.shown : null;
  if (shown === null) {
    if (s.choice !== null && hasSide(s, s.choice, now)) shown = s.choice;
    else if (hasSide(s, 'todos', now)) shown = 'todos';
    else if (hasSide(s, 'tasks', now)) shown = 'tasks';
  }
  const badge = shown === 'tasks' && !s.collapsed ? 0 : s.badge;
  const preview = s.preview !== null && s.tasks.some((t) => t.task.id === s.preview && !s.removed[t.task.id]) ? s.preview : null;
  if (shown === s.shown && badge === s.badge && preview === s.preview) return s;
  return { ...s, shown, badge, preview };
}

function upsert(s: SessionTasks, task: BackgroundTask, now: number): SessionTasks {
  const i = s.tasks.findIndex((t) => t.task.id === task.id);
  const ended = isTerminal(task.state);
  if (i < 0) return { ...s, tasks: [...s.tasks, { task, endSeenAt: ended ? now : 0 }] };
  const prev = s.tasks[i]!;
  // A late snapshot never brings a finished task back to life.
  if (prev.endSeenAt !== 0 && !ended) return s;
  const next = { task, endSeenAt: prev.endSeenAt !== 0 ? prev.endSeenAt : ended ? now : 0 };
  return { ...s, tasks: s.tasks.map((t, j) => (j === i ? next : t)) };
}

function sessionReducer(s: SessionTasks, action: TasksAction): SessionTasks {
  switch (action.type) {
    case 'listed': {
      let next = s;
      const history = { ...s.history };
      for (const task of action.tasks) {
        const known = next.tasks.some((t) => t.task.id === task.id);
        if (!known && isTerminal(task.state)) history[task.id] = true;
        else if (!history[task.id]) next = upsert(next, task, action.now);
      }
      return { ...next, history };
    }
    case 'todosListed':
      return s.todosLive ? s : { ...s, todos: action.todos };
    case 'todos':
      return { ...s, todos: action.todos, todosLive: true };
    case 'started': {
      const id = action.task.id;
      if (s.history[id] || s.removed[id]) return s;
      if (s.tasks.some((t) => t.task.id === id)) return upsert(s, action.task, action.now);
      const next = settle(upsert(s, action.task, action.now), action.now);
      // A new task never steals the tab: it raises the badge unless its panel is on screen.
      return next.shown === 'tasks' && !next.collapsed ? next : { ...next, badge: next.badge + 1 };
    }
    case 'exited':
      return s.history[action.task.id] ? s : upsert(s, action.task, action.now);
    case 'stopping':
      return {
        ...s,
        tasks: s.tasks.map((t) =>
          t.task.id === action.taskId && !isTerminal(t.task.state) ? { ...t, task: { ...t.task, state: 'stopping' } } : t,
        ),
      };
    case 'removed': {
      // The live-task guard lives here, not only in the UI: a running or stopping task stays.
      const t = s.tasks.find((x) => x.task.id === action.taskId);
      if (!t || !isTerminal(t.task.state)) return s;
      return { ...s, removed: { ...s.removed, [action.taskId]: true } };
    }
    case 'select':
      return { ...s, choice: action.side, shown: action.side, collapsed: false };
    case 'toggle':
      return { ...s, collapsed: !s.collapsed };
    case 'preview':
      return { ...s, preview: action.taskId };
    case 'tick':
      return s;
    case 'entered':
      return s.choice !== null && s.choice !== s.shown && hasSide(s, s.choice, action.now) ? { ...s, shown: s.choice } : s;
  }
}

function sessionOf(action: TasksAction): string {
  return 'task' in action ? action.task.sessionId : action.sessionId;
}

export function tasksReducer(state: TasksState, action: TasksAction): TasksState {
  const id = sessionOf(action);
  if (id === '') return state;
  const cur = state.sessions[id] ?? emptySession;
  const next = settle(sessionReducer(cur, action), action.now);
  if (next === cur && state.sessions[id]) return state;
  return { sessions: { ...state.sessions, [id]: next } };
}

/** Removal refusal reason, or null when the task may be removed (terminal and still listed). */
export function removeRefusal(s: SessionTasks | undefined, taskId: string): string | null {
  const t = s?.tasks.find((x) => x.task.id === taskId);
  if (!t) return 'not_found';
  return isTerminal(t.task.state) ? null : t.task.state;
}

/** Completed and total todos, for the header's "3/7". */
export function todoProgress(todos: Todo[]): { done: number; total: number } {
  return { done: todos.filter((t) => t.status === 'completed').length, total: todos.length };
}

/** The last `max` characters (code points) of text, and whether anything was cut. */
export function tailChars(text: string, max: number): { text: string; clipped: boolean } {
  if (text.length <= max) return { text, clipped: false };
  const cps = Array.from(text);
  if (cps.length <= max) return { text, clipped: false };
  return { text: cps.slice(cps.length - max).join(''), clipped: true };
}

/** Compact duration: "4s", "1m 05s", "2h 03m". */
export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(m / 60)}h ${String(m % 60).padStart(2, '0')}m`;
}
