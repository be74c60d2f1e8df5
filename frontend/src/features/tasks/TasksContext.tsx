// App-wide store of the todo + background-task container. It lives above the session pane
// so the per-session view state (remembered tab, badge, removals) survives switching
// sessions, and so task ends are observed for every session, shown or not.
import { createContext, useCallback, useContext, useEffect, useMemo, useReducer, useRef, useState, type Dispatch, type ReactNode } from 'react';
import * as bridge from '../../bridge';
import { BridgeError, toBridgeError } from '../../bridge/errors';
import { useEventRouter } from '../../state/LiveData';
import { ANY_SESSION } from '../../state/sessionEvents';
import { emptySession, initialTasksState, removeRefusal, tasksReducer, type SessionTasks, type TasksAction } from './tasksState';

export interface LoadErrors {
  tasks: BridgeError | null;
  todos: BridgeError | null;
}

export interface TasksApi {
  session: (sessionId: string) => SessionTasks;
  dispatch: Dispatch<TasksAction>;
  /** Reads the session's tasks and todos once; again only for a part that failed. */
  load: (sessionId: string) => void;
  loadErrors: (sessionId: string) => LoadErrors;
  /** Sends a stop signal; rejects with the host's error so the user can retry. */
  stop: (sessionId: string, taskId: string) => Promise<void>;
  /** Removes a finished task from the view; a live task is refused here, before the host is asked. */
  remove: (sessionId: string, taskId: string) => Promise<void>;
}

const noErrors: LoadErrors = { tasks: null, todos: null };

const TasksContext = createContext<TasksApi | null>(null);

export function TasksProvider({ children }: { children: ReactNode }) {
  const [state, dispatch] = useReducer(tasksReducer, initialTasksState);
  const [errors, setErrors] = useState<Record<string, LoadErrors>>({});
  // Parts requested or loaded per session: "tasks:<id>", "todos:<id>".
  const requested = useRef(new Set<string>());
  const stateRef = useRef(state);
  useEffect(() => {
    stateRef.current = state;
  }, [state]);

  const router = useEventRouter();
  useEffect(() => {
    const offTasks = router.on('task', ANY_SESSION, (e) => {
      if (e.type === 'task_started') dispatch({ type: 'started', task: e.task, now: Date.now() });
      else if (e.type === 'task_exited') dispatch({ type: 'exited', task: e.task, now: Date.now() });
    });
    const offTodos = router.on('todos', ANY_SESSION, (e) => dispatch({ type: 'todos', sessionId: e.sessionId, todos: e.todos, now: Date.now() }));
    return () => {
      offTasks();
      offTodos();
    };
  }, [router]);

  const setError = useCallback((sessionId: string, part: keyof LoadErrors, err: BridgeError | null) => {
    setErrors((prev) => {
      const cur = prev[sessionId] ?? noErrors;
      if (cur[part] === err) return prev;
      return { ...prev, [sessionId]: { ...cur, [part]: err } };
    });
  }, []);

  const load = useCallback(
    (sessionId: string) => {
      const want = (part: keyof LoadErrors) => {
        const key = `${part}:${sessionId}`;
        if (requested.current.has(key)) return false;
        requested.current.add(key);
        return true;
      };
      const wantTasks = want('tasks');
      const wantTodos = want('todos');
      if (!wantTasks && !wantTodos) return;
      // Both land together, todos first, so the first pick does not depend on which read was faster.
      void Promise.allSettled([
        wantTasks ? bridge.tasks(sessionId) : Promise.resolve(null),
        wantTodos ? bridge.todos(sessionId) : Promise.resolve(null),
      ]).then(([tasks, todos]) => {
        const now = Date.now();
        if (todos.status === 'fulfilled' && todos.value !== null) dispatch({ type: 'todosListed', sessionId, todos: todos.value, now });
        if (tasks.status === 'fulfilled' && tasks.value !== null) {
          dispatch({ type: 'listed', sessionId, tasks: tasks.value.filter((t) => t.sessionId === sessionId), now });
        }
        for (const [part, r] of [['tasks', tasks], ['todos', todos]] as const) {
          if (part === 'tasks' ? !wantTasks : !wantTodos) continue;
          if (r.status === 'rejected') requested.current.delete(`${part}:${sessionId}`);
          setError(sessionId, part, r.status === 'rejected' ? toBridgeError(r.reason) : null);
        }
      });
    },
    [setError],
  );

  const stop = useCallback(async (sessionId: string, taskId: string) => {
    await bridge.stopTask(sessionId, taskId);
    dispatch({ type: 'stopping', sessionId, taskId, now: Date.now() });
  }, []);

  const remove = useCallback(async (sessionId: string, taskId: string) => {
    const refusal = removeRefusal(stateRef.current.sessions[sessionId], taskId);
    if (refusal === 'not_found') throw new BridgeError('NOT_FOUND', `background task ${taskId} is not in this session`);
    if (refusal !== null) {
      throw new BridgeError('BACKGROUND_TASK_RUNNING', `the task is ${refusal}; only a finished task can be removed, stop it first`, {
        taskId,
        state: refusal,
      });
    }
    await bridge.removeTask(sessionId, taskId);
    dispatch({ type: 'removed', sessionId, taskId, now: Date.now() });
  }, []);

  const value = useMemo<TasksApi>(
    () => ({
      session: (id) => state.sessions[id] ?? emptySession,
      dispatch,
      load,
      loadErrors: (id) => errors[id] ?? noErrors,
      stop,
      remove,
    }),
    [state, errors, load, stop, remove],
  );
  return <TasksContext.Provider value={value}>{children}</TasksContext.Provider>;
}

export function useTasks(): TasksApi {
  const ctx = useContext(TasksContext);
  if (!ctx) throw new Error('useTasks needs a TasksProvider');
  return ctx;
}
