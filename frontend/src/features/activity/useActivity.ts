// One session's audit rows for the Activity view: filtered, paged newest first ("load
// more" follows the cursor), and topped up with new rows when a tool call finishes.
import { useCallback, useEffect, useRef, useState } from 'react';
import * as bridge from '../../bridge';
import type { ActivityFilter, ActivitySummary, AuditRow } from '../../bridge/activity';
import { toBridgeError, type BridgeError } from '../../bridge/errors';

export const PAGE_SIZE = 50;

export const ANY: ActivityFilter = { tool: '', decision: '', result: '' };

export interface ActivityApi {
  filter: ActivityFilter;
  setFilter: (f: ActivityFilter) => void;
  rows: AuditRow[];
  summary: ActivitySummary | null;
  loading: boolean;
  loadingMore: boolean;
  hasMore: boolean;
  error: BridgeError | null;
  loadMore: () => void;
  retry: () => void;
}

interface State {
  rows: AuditRow[];
  next: number;
  summary: ActivitySummary | null;
  loading: boolean;
  loadingMore: boolean;
  error: BridgeError | null;
}

const initial: State = { rows: [], next: 0, summary: null, loading: true, loadingMore: false, error: null };

export function useActivity(sessionId: string, pageSize = PAGE_SIZE): ActivityApi {
  const [filter, setFilterState] = useState<ActivityFilter>(ANY);
  const [state, setState] = useState<State>(initial);
  const [attempt, setAttempt] = useState(0);
  // Bumped whenever the listing starts over: answers for an older listing are dropped.
  const generation = useRef(0);

  useEffect(() => {
    const gen = ++generation.current;
    setState(initial);
    bridge.activityLog(sessionId, filter, 0, pageSize).then(
      (p) => gen === generation.current && setState({ ...initial, rows: p.rows, next: p.nextCursor, summary: p.summary, loading: false }),
      (err: unknown) => gen === generation.current && setState({ ...initial, loading: false, error: toBridgeError(err) }),
    );
  }, [sessionId, filter, pageSize, attempt]);

  // The rendered state, for handlers that must decide before updating it.
  const current = useRef(state);
  current.current = state;

  const loadMore = useCallback(() => {
    const gen = generation.current;
    const s = current.current;
    if (s.loading || s.loadingMore || s.next === 0) return;
    const cursor = s.next;
    current.current = { ...s, loadingMore: true };
    setState((x) => ({ ...x, loadingMore: true, error: null }));
    bridge.activityLog(sessionId, filter, cursor, pageSize).then(
      (p) => {
        if (gen !== generation.current) return;
        setState((s) => {
          const seen = new Set(s.rows.map((r) => r.id));
          return { ...s, rows: [...s.rows, ...p.rows.filter((r) => !seen.has(r.id))], next: p.nextCursor, loadingMore: false };
        });
      },
      (err: unknown) => gen === generation.current && setState((s) => ({ ...s, loadingMore: false, error: toBridgeError(err) })),
    );
  }, [sessionId, filter, pageSize]);

  // New tool calls: read the first page again and put the rows not yet shown on top,
  // keeping the older pages already loaded.
  const topUp = useCallback(() => {
    const gen = generation.current;
    bridge.activityLog(sessionId, filter, 0, pageSize).then(
      (p) => {
        if (gen !== generation.current) return;
        setState((s) => {
          if (s.loading) return s;
          const newest = s.rows[0]?.id ?? 0;
          const fresh = p.rows.filter((r) => r.id > newest);
          // More new rows than one page: the loaded pages no longer join up, start over.
          if (newest > 0 && fresh.length === p.rows.length && p.nextCursor !== 0) {
            return { ...initial, rows: p.rows, next: p.nextCursor, summary: p.summary, loading: false };
          }
          return { ...s, rows: [...fresh, ...s.rows], next: s.rows.length === 0 ? p.nextCursor : s.next, summary: p.summary ?? s.summary };
        });
      },
      () => {}, // the next call or a retry shows the error
    );
  }, [sessionId, filter, pageSize]);

  useEffect(
    () =>
      bridge.onAgentEvent((e) => {
        if (e.sessionId === sessionId && (e.type === 'tool_result' || (e.type === 'turn' && e.state !== 'running'))) topUp();
      }),
    [sessionId, topUp],
  );

  return {
    filter,
    setFilter: setFilterState,
    rows: state.rows,
    summary: state.summary,
    loading: state.loading,
    loadingMore: state.loadingMore,
    hasMore: state.next !== 0,
    error: state.error,
    loadMore,
    retry: () => setAttempt((n) => n + 1),
  };
}
