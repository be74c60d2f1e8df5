// The session's review records (spec §4c) for the Review pane and the transcript's
// inline rows: one cached list per session, read from ReviewChanges (never recomputed
// from git), invalidated when a tool result carries review evidence or a turn ends (see
// features/app/cacheRules), and updated in place by a rollback.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import * as bridge from '../../bridge';
import { toBridgeError, type BridgeError } from '../../bridge/errors';
import type { AgentEvent, ReviewChange } from '../../bridge/types';
import { queryKeys } from '../../state/queryKeys';

export interface ReviewApi {
  /** Oldest first, so grouped by message the newest comes last. */
  changes: ReviewChange[];
  byId: Record<string, ReviewChange>;
  loaded: boolean;
  error: BridgeError | null;
  reload: () => void;
  /** Rolls a change back (with its move partner); resolves with the changes now rolled back. Rejects with a BridgeError. */
  rollback: (snapshotId: string) => Promise<ReviewChange[]>;
}

const none: ReviewChange[] = [];

/** Replaces the listed records by snapshot id, keeping the order. */
function merge(list: ReviewChange[], updated: ReviewChange[]): ReviewChange[] {
  const next = new Map(updated.map((c) => [c.snapshotId, c]));
  return list.map((c) => next.get(c.snapshotId) ?? c);
}

/** Whether an agent event may have added review records. */
export function touchesReview(e: AgentEvent): boolean {
  return (e.type === 'tool_result' && e.result.review.length > 0) || (e.type === 'turn' && e.state !== 'running');
}

export function useReviewChanges(sessionId: string): ReviewApi {
  const client = useQueryClient();
  const key = queryKeys.review(sessionId);
  const q = useQuery({ queryKey: key, queryFn: () => bridge.reviewChanges(sessionId, '') });
  const { refetch } = q;

  const reload = useCallback(() => void refetch(), [refetch]);

  const rollback = useCallback(
    async (snapshotId: string) => {
      const changed = await bridge.rollbackChange(sessionId, snapshotId);
      const k = queryKeys.review(sessionId);
      // A read that started before the rollback is stale.
      await client.cancelQueries({ queryKey: k, exact: true });
      client.setQueryData<ReviewChange[]>(k, (list) => (list ? merge(list, changed) : list));
      return changed;
    },
    [client, sessionId],
  );

  const changes = q.data ?? none;
  const byId = useMemo(() => Object.fromEntries(changes.map((c) => [c.snapshotId, c])), [changes]);
  const loaded = q.data !== undefined || q.isError;
  return { changes, byId, loaded, error: q.error ? toBridgeError(q.error) : null, reload, rollback };
}
