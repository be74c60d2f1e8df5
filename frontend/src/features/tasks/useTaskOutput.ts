// Reads the one open output preview: at once, then again REFRESH_MS after the previous
// read settled while the task runs (the query's refetch interval restarts whenever a
// read settles). Nothing is read while the preview is hidden (collapsed container,
// other tab). A read still on its way when the selection changes is cancelled, so one
// task's log never shows under another and a reopened preview reads afresh.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect } from 'react';
import * as bridge from '../../bridge';
import { toBridgeError, type BridgeError } from '../../bridge/errors';
import type { TaskOutput } from '../../bridge/types';
import { queryKeys } from '../../state/queryKeys';
import { isTerminal, REFRESH_MS } from './tasksState';

export interface TaskOutputState {
  output: TaskOutput | null;
  error: BridgeError | null;
  /** Reads again after an error. */
  retry: () => void;
}

export function useTaskOutput(sessionId: string, taskId: string | null, active: boolean): TaskOutputState {
  const client = useQueryClient();
  const q = useQuery({
    queryKey: queryKeys.taskOutput(sessionId, taskId ?? ''),
    queryFn: () => bridge.taskOutput(sessionId, taskId ?? ''),
    enabled: active && taskId !== null,
    // Always read when shown: the log grew while it was hidden.
    staleTime: 0,
    refetchOnMount: 'always',
    // Keep the last output on screen after an error; the error says why it stopped refreshing.
    refetchInterval: (query) => (query.state.status === 'error' || (query.state.data && isTerminal(query.state.data.task.state)) ? false : REFRESH_MS),
    refetchIntervalInBackground: true,
  });

  useEffect(() => {
    if (taskId === null || !active) return;
    const key = queryKeys.taskOutput(sessionId, taskId);
    return () => void client.cancelQueries({ queryKey: key, exact: true });
  }, [client, sessionId, taskId, active]);

  const { refetch } = q;
  const retry = useCallback(() => void refetch(), [refetch]);
  if (taskId === null) return { output: null, error: null, retry };
  return { output: q.data ?? null, error: q.error ? toBridgeError(q.error) : null, retry };
}
