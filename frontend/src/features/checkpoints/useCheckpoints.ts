// The session's checkpoints and what its Bash calls changed: cached per session,
// invalidated when a tool result arrives or a turn ends (features/app/cacheRules) and
// after a restore.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import * as bridge from '../../bridge';
import type { CommandChange, Checkpoint } from '../../bridge/checkpoints';
import type { AgentEvent } from '../../bridge/types';
import { queryKeys } from '../../state/queryKeys';

/** Whether an agent event may have taken checkpoints: any tool result (Bash ones do), a turn's end. */
export function touchesCheckpoints(e: AgentEvent): boolean {
  return e.type === 'tool_result' || (e.type === 'turn' && e.state !== 'running');
}

const none: Checkpoint[] = [];
const noCommands: CommandChange[] = [];

export function useCheckpoints(sessionId: string): Checkpoint[] {
  const q = useQuery({ queryKey: queryKeys.checkpoints(sessionId), queryFn: () => bridge.checkpoints(sessionId) });
  return q.data ?? none;
}

export function useCommandChanges(sessionId: string): CommandChange[] {
  const q = useQuery({ queryKey: queryKeys.commandChanges(sessionId), queryFn: () => bridge.commandChanges(sessionId) });
  return q.data ?? noCommands;
}

/** After a restore: the files, so every view of them, changed. */
export function useAfterRestore(sessionId: string): () => void {
  const client = useQueryClient();
  return useCallback(() => {
    for (const key of [queryKeys.checkpoints(sessionId), queryKeys.commandChanges(sessionId), queryKeys.review(sessionId), queryKeys.checkpointUsage]) {
      void client.invalidateQueries({ queryKey: key });
    }
  }, [client, sessionId]);
}
