// The session's review records (spec §4c) for the Review pane and the transcript's
// inline rows: one list per session, read from ReviewChanges (never recomputed from
// git), re-read when a tool result carries review evidence or a turn ends, and
// updated in place by a rollback.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import * as bridge from '../../bridge';
import { toBridgeError, type BridgeError } from '../../bridge/errors';
import type { AgentEvent, ReviewChange } from '../../bridge/types';

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

interface State {
  sessionId: string;
  changes: ReviewChange[];
  loaded: boolean;
  error: BridgeError | null;
}

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
  const [state, setState] = useState<State>({ sessionId, changes: [], loaded: false, error: null });
  // Only the newest read lands: a slow answer never overwrites a fresher one.
  const seq = useRef(0);

  const reload = useCallback(() => {
    const mine = ++seq.current;
    bridge.reviewChanges(sessionId, '').then(
      (changes) => mine === seq.current && setState({ sessionId, changes, loaded: true, error: null }),
      (err: unknown) =>
        mine === seq.current && setState((s) => ({ ...(s.sessionId === sessionId ? s : { sessionId, changes: [] }), loaded: true, error: toBridgeError(err) })),
    );
  }, [sessionId]);

  useEffect(() => {
    reload();
    return bridge.onAgentEvent((e) => {
      if (e.sessionId === sessionId && touchesReview(e)) reload();
    });
  }, [sessionId, reload]);

  const rollback = useCallback(
    async (snapshotId: string) => {
      const changed = await bridge.rollbackChange(sessionId, snapshotId);
      seq.current++; // a read that started before the rollback is stale
      setState((s) => (s.sessionId === sessionId ? { ...s, changes: merge(s.changes, changed) } : s));
      return changed;
    },
    [sessionId],
  );

  const current = state.sessionId === sessionId ? state : { changes: [], loaded: false, error: null };
  const byId = useMemo(() => Object.fromEntries(current.changes.map((c) => [c.snapshotId, c])), [current.changes]);
  return { changes: current.changes, byId, loaded: current.loaded, error: current.error, reload, rollback };
}
