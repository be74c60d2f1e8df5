import { CircleCheck, CircleX, FileText, LoaderCircle, Square, Trash2 } from 'lucide-react';
import { useId, useState, type ReactNode } from 'react';
import { toBridgeError, type BridgeError } from '../../bridge/errors';
import type { BackgroundTask } from '../../bridge/types';
import { Button } from '../../ui/Button';
import { formatDuration, isTerminal, PREVIEW_STDERR_CHARS, PREVIEW_STDOUT_CHARS, tailChars, type TrackedTask } from './tasksState';
import type { TaskOutputState } from './useTaskOutput';

export function taskStatus(task: BackgroundTask): string {
  switch (task.state) {
    case 'running':
      return 'running';
    case 'stopping':
      return 'stopping…';
    case 'stopped':
      return 'stopped';
    case 'exited':
    case 'failed':
      return task.exitCode !== null ? `exit ${task.exitCode}` : 'failed';
    default:
      return task.state;
  }
}

function StatusIcon({ task }: { task: BackgroundTask }) {
  if (!isTerminal(task.state)) return <LoaderCircle size={14} aria-hidden="true" className="task-icon spin" />;
  if (task.state === 'stopped') return <Square size={12} aria-hidden="true" className="task-icon" />;
  if (task.state === 'exited') return <CircleCheck size={14} aria-hidden="true" className="task-icon task-icon-ok" />;
  return <CircleX size={14} aria-hidden="true" className="task-icon task-icon-failed" />;
}

export interface TaskRowProps {
  tracked: TrackedTask;
  now: number;
  previewOpen: boolean;
  onTogglePreview: () => void;
  onStop: () => Promise<void>;
  onRemove: () => Promise<void>;
  /** The open preview's reads (only for the row whose preview is open). */
  preview: TaskOutputState | null;
}

type Failure = { action: 'stop' | 'remove'; error: BridgeError };

export function TaskRow({ tracked, now, previewOpen, onTogglePreview, onStop, onRemove, preview }: TaskRowProps) {
  const { task, endSeenAt } = tracked;
  const [busy, setBusy] = useState<'stop' | 'remove' | null>(null);
  const [failure, setFailure] = useState<Failure | null>(null);
  const previewId = useId();
  const terminal = isTerminal(task.state);
  const end = terminal ? task.endedAt || endSeenAt : now;
  const duration = task.startedAt > 0 ? formatDuration(end - task.startedAt) : '';

  const act = async (action: Failure['action'], run: () => Promise<void>) => {
    setBusy(action);
    try {
      await run();
      setFailure(null);
    } catch (err) {
      setFailure({ action, error: toBridgeError(err) });
    } finally {
      setBusy(null);
    }
  };

  return (
    <li className="task-row" aria-label={task.command}>
      <div className="task-line">
        <StatusIcon task={task} />
        <code className="task-command selectable" title={task.command}>
          {task.command}
        </code>
        <span className={`task-status task-${task.state}`} title={task.error || undefined}>
          {taskStatus(task)}
        </span>
        {duration !== '' && <span className="task-duration">{duration}</span>}
        <span className="task-actions">
          <Button
            size="sm"
            variant="ghost"
            icon={<FileText size={13} aria-hidden="true" />}
            aria-expanded={previewOpen}
            aria-controls={previewOpen ? previewId : undefined}
            onClick={onTogglePreview}
          >
            Output
          </Button>
          {!terminal && (
            <Button
              size="sm"
              variant="ghost"
              icon={<Square size={12} aria-hidden="true" />}
              disabled={busy !== null || task.state === 'stopping'}
              onClick={() => void act('stop', onStop)}
            >
              {task.state === 'stopping' || busy === 'stop' ? 'Stopping…' : 'Stop'}
            </Button>
          )}
          {terminal && (
            <Button size="sm" variant="ghost" icon={<Trash2 size={13} aria-hidden="true" />} disabled={busy !== null} onClick={() => void act('remove', onRemove)}>
              Remove
            </Button>
          )}
        </span>
      </div>
      {failure && (
        <p className="task-error" role="alert">
          {failure.action === 'stop' ? 'Could not stop the task: ' : 'Could not remove the task: '}
          {failure.error.message} <code className="error-code">{failure.error.code}</code>
          {failure.action === 'stop' && !terminal ? ' Press Stop to try again.' : failure.action === 'remove' && terminal ? ' Press Remove to try again.' : ''}
        </p>
      )}
      {previewOpen && preview && <TaskPreview id={previewId} state={preview} />}
    </li>
  );
}

function Stream({ name, text, max, truncated }: { name: 'stdout' | 'stderr'; text: string; max: number; truncated: boolean }) {
  const tail = tailChars(text, max);
  const note: ReactNode =
    tail.clipped || truncated ? <span className="task-output-note"> · last {max.toLocaleString('en-US')} characters</span> : null;
  return (
    <figure className="tool-output-figure">
      <figcaption className="tool-output-label">
        {name}
        {note}
      </figcaption>
      <pre className={`tool-output task-output selectable${name === 'stderr' ? ' tool-output-stderr' : ''}`} aria-label={name}>
        {tail.text}
      </pre>
    </figure>
  );
}

function TaskPreview({ id, state }: { id: string; state: TaskOutputState }) {
  const { output, error, retry } = state;
  return (
    <div className="task-preview" id={id}>
      {error && (
        <p className="task-error" role="alert">
          Could not read the output: {error.message} <code className="error-code">{error.code}</code>{' '}
          <Button size="sm" onClick={retry}>
            Retry
          </Button>
        </p>
      )}
      {!output && !error && <p className="task-output-note">Reading output…</p>}
      {output && (
        <>
          {(output.stdout.text !== '' || output.stderr.text === '') && (
            <Stream name="stdout" text={output.stdout.text} max={PREVIEW_STDOUT_CHARS} truncated={output.stdout.truncated} />
          )}
          {output.stderr.text !== '' && (
            <Stream name="stderr" text={output.stderr.text} max={PREVIEW_STDERR_CHARS} truncated={output.stderr.truncated} />
          )}
        </>
      )}
    </div>
  );
}
