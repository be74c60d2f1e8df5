// Reads the one open output preview: at once, then again REFRESH_MS after the previous
// read settled while the task runs. Nothing is read while the preview is hidden
// (collapsed container, other tab). A read that settles after the selection changed is
// dropped, so one task's log never shows under another.
import { useCallback, useEffect, useState } from 'react';
import * as bridge from '../../bridge';
import { toBridgeError, type BridgeError } from '../../bridge/errors';
import type { TaskOutput } from '../../bridge/types';
import { isTerminal, REFRESH_MS } from './tasksState';

export interface TaskOutputState {
  output: TaskOutput | null;
  error: BridgeError | null;
  /** Reads again after an error. */
  retry: () => void;
}

interface Read {
  key: string;
  output: TaskOutput | null;
  error: BridgeError | null;
}

export function useTaskOutput(sessionId: string, taskId: string | null, active: boolean): TaskOutputState {
  const key = taskId === null ? '' : `${sessionId}\u0000${taskId}`;
  const [read, setRead] = useState<Read>({ key: '', output: null, error: null });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    if (!active || taskId === null) return;
    let current = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const run = async () => {
      try {
        const output = await bridge.taskOutput(sessionId, taskId);
        if (!current) return;
        setRead({ key, output, error: null });
        if (!isTerminal(output.task.state)) timer = setTimeout(() => void run(), REFRESH_MS);
      } catch (err) {
        if (!current) return;
        // Keep the last output on screen; the error says why it stopped refreshing.
        setRead((prev) => ({ key, output: prev.key === key ? prev.output : null, error: toBridgeError(err) }));
      }
    };
    void run();
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [sessionId, taskId, key, active, attempt]);

  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  const mine = read.key === key && key !== '';
  return { output: mine ? read.output : null, error: mine ? read.error : null, retry };
}
