// The composer's shared container for the session checklist and background tasks
// (spec §5): one header (todo progress, running count, tabs, disclosure), one panel.
import { ChevronDown, ChevronUp, ListChecks, LoaderCircle } from 'lucide-react';
import { useEffect, useId, useState, type CSSProperties, type KeyboardEvent } from 'react';
import { Button, IconButton } from '../../ui/Button';
import { TaskRow } from './TaskRow';
import { useTasks } from './TasksContext';
import { isTerminal, nextExpiry, settle, todoProgress, visibleTasks, type Side } from './tasksState';
import { TodoList } from './TodoList';
import { useTaskOutput } from './useTaskOutput';

const SIDE_LABEL: Record<Side, string> = { todos: 'Todos', tasks: 'Tasks' };

/** Extra rows scroll inside the panel instead of pushing the decision surfaces and the input away. */
export const PANEL_STYLE: CSSProperties = { maxHeight: 'min(200px, 24vh)', overflowY: 'auto' };

export function TasksContainer({ sessionId }: { sessionId: string }) {
  const api = useTasks();
  const { load, dispatch, stop, remove } = api;
  const errors = api.loadErrors(sessionId);
  // Re-renders when a grace window ends or a running duration should move on.
  const [, setClock] = useState(0);
  const now = Date.now();
  const s = settle(api.session(sessionId), now);
  const tasks = visibleTasks(s, now);
  const hasTodos = s.todos.length > 0;
  const hasTasks = tasks.length > 0;
  const both = hasTodos && hasTasks;
  const tasksOnScreen = s.shown === 'tasks' && !s.collapsed;
  const running = tasks.filter((t) => !isTerminal(t.task.state)).length;
  const expiry = nextExpiry(s, now);
  const panelId = useId();
  const tabId = useId();
  const output = useTaskOutput(sessionId, s.preview, tasksOnScreen && s.preview !== null);

  useEffect(() => {
    load(sessionId);
    dispatch({ type: 'entered', sessionId, now: Date.now() });
  }, [load, dispatch, sessionId]);

  useEffect(() => {
    if (expiry === null) return;
    const t = setTimeout(() => {
      setClock((c) => c + 1);
      dispatch({ type: 'tick', sessionId, now: Date.now() });
    }, Math.max(0, expiry - Date.now()));
    return () => clearTimeout(t);
  }, [expiry, dispatch, sessionId]);

  useEffect(() => {
    if (running === 0 || !tasksOnScreen) return;
    const t = setInterval(() => setClock((c) => c + 1), 1000);
    return () => clearInterval(t);
  }, [running, tasksOnScreen]);

  const loadError = errors.tasks ?? errors.todos;
  if (!hasTodos && !hasTasks && !loadError) return null;

  const select = (side: Side) => dispatch({ type: 'select', sessionId, side, now: Date.now() });
  const onTabKey = (e: KeyboardEvent) => {
    if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight') return;
    e.preventDefault();
    const side: Side = s.shown === 'todos' ? 'tasks' : 'todos';
    select(side);
    document.getElementById(`${tabId}-${side}`)?.focus();
  };
  const { done, total } = todoProgress(s.todos);
  const badge = both && s.badge > 0 && !tasksOnScreen ? s.badge : 0;

  return (
    <section className="dock" aria-label="Todos and background tasks">
      <div className="dock-header">
        {both ? (
          <div role="tablist" aria-label="Todos and background tasks" className="dock-tabs" onKeyDown={onTabKey}>
            {(['todos', 'tasks'] as const).map((side) => (
              <button
                key={side}
                type="button"
                role="tab"
                id={`${tabId}-${side}`}
                aria-selected={s.shown === side}
                aria-controls={!s.collapsed && s.shown === side ? panelId : undefined}
                tabIndex={s.shown === side ? 0 : -1}
                className={s.shown === side ? 'dock-tab dock-tab-on' : 'dock-tab'}
                onClick={() => select(side)}
              >
                {SIDE_LABEL[side]}
                {side === 'tasks' && badge > 0 && ' '}
                {side === 'tasks' && badge > 0 && (
                  <span className="dock-badge" aria-label={`${badge} new`}>
                    {badge}
                  </span>
                )}
              </button>
            ))}
          </div>
        ) : (
          <span className="dock-title">{hasTodos ? 'Todos' : hasTasks ? 'Background tasks' : 'Todos and tasks'}</span>
        )}
        <span className="dock-summary">
          {hasTodos && (
            <span className="dock-progress" title={`${done} of ${total} todos done`}>
              <ListChecks size={13} aria-hidden="true" />
              <span className="visually-hidden">Todos done: </span>
              {done}/{total}
            </span>
          )}
          {running > 0 && (
            <span className="dock-running">
              <LoaderCircle size={12} aria-hidden="true" className="spin" />
              {running} running
            </span>
          )}
        </span>
        {(hasTodos || hasTasks) && (
          <IconButton
            label="Show todos and tasks"
            aria-expanded={!s.collapsed}
            aria-controls={s.collapsed ? undefined : panelId}
            onClick={() => dispatch({ type: 'toggle', sessionId, now: Date.now() })}
          >
            {s.collapsed ? <ChevronUp size={15} aria-hidden="true" /> : <ChevronDown size={15} aria-hidden="true" />}
          </IconButton>
        )}
      </div>
      {loadError && (
        <p className="task-error dock-load-error" role="alert">
          Could not load {errors.tasks ? 'the background tasks' : 'the todos'}: {loadError.message}{' '}
          <code className="error-code">{loadError.code}</code>{' '}
          <Button size="sm" onClick={() => load(sessionId)}>
            Retry
          </Button>
        </p>
      )}
      {!s.collapsed && s.shown !== null && (
        <div
          id={panelId}
          className="dock-panel"
          style={PANEL_STYLE}
          role={both ? 'tabpanel' : 'region'}
          aria-labelledby={both ? `${tabId}-${s.shown}` : undefined}
          aria-label={both ? undefined : s.shown === 'todos' ? 'Todos' : 'Background tasks'}
        >
          {s.shown === 'todos' ? (
            <TodoList todos={s.todos} />
          ) : (
            <ul className="task-list" aria-label="Background tasks">
              {tasks.map((t) => {
                const id = t.task.id;
                const open = s.preview === id;
                return (
                  <TaskRow
                    key={id}
                    tracked={t}
                    now={now}
                    previewOpen={open}
                    preview={open ? output : null}
                    onTogglePreview={() => dispatch({ type: 'preview', sessionId, taskId: open ? null : id, now: Date.now() })}
                    onStop={() => stop(sessionId, id)}
                    onRemove={() => remove(sessionId, id)}
                  />
                );
              })}
            </ul>
          )}
        </div>
      )}
    </section>
  );
}
