import { Circle, CircleCheck, LoaderCircle } from 'lucide-react';
import type { Todo } from '../../bridge/types';

const STATUS_LABEL: Record<Todo['status'], string> = { pending: 'To do', in_progress: 'In progress', completed: 'Done' };

function TodoIcon({ status }: { status: Todo['status'] }) {
  if (status === 'completed') return <CircleCheck size={14} aria-hidden="true" className="todo-icon" />;
  if (status === 'in_progress') return <LoaderCircle size={14} aria-hidden="true" className="todo-icon spin" />;
  return <Circle size={14} aria-hidden="true" className="todo-icon" />;
}

/** The session checklist; a running step reads in its active form ("Running the tests"). */
export function TodoList({ todos }: { todos: Todo[] }) {
  return (
    <ul className="todo-list" aria-label="Todos">
      {todos.map((t, i) => (
        <li key={i} className={`todo-item todo-${t.status}`}>
          <TodoIcon status={t.status} />
          <span className="todo-text">
            <span className="visually-hidden">{STATUS_LABEL[t.status]}: </span>
            {t.status === 'in_progress' && t.activeForm !== '' ? t.activeForm : t.content}
          </span>
        </li>
      ))}
    </ul>
  );
}
