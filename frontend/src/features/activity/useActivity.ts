// One session's audit rows for the Activity view: filtered, paged newest first ("load
// more" follows the cursor), and topped up with new rows when a tool call finishes
// (topUpActivity, run by the cache rules on the session's agent events).
import { useInfiniteQuery, type InfiniteData, type QueryClient } from '@tanstack/react-query';
import { useCallback, useMemo, useState } from 'react';
import * as bridge from '../../bridge';
import type { ActivityFilter, ActivityPage, ActivitySummary, AuditRow } from '../../bridge/activity';
import { toBridgeError, type BridgeError } from '../../bridge/errors';
import { queryKeys } from '../../state/queryKeys';

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

type Pages = InfiniteData<ActivityPage, number>;

export function useActivity(sessionId: string, pageSize = PAGE_SIZE): ActivityApi {
  const [filter, setFilter] = useState<ActivityFilter>(ANY);
  const q = useInfiniteQuery({
    queryKey: queryKeys.activity(sessionId, filter, pageSize),
    queryFn: ({ pageParam }) => bridge.activityLog(sessionId, filter, pageParam, pageSize),
    initialPageParam: 0,
    getNextPageParam: (last) => (last.nextCursor === 0 ? undefined : last.nextCursor),
  });
  const { fetchNextPage, hasNextPage, isFetchingNextPage, isPending, refetch } = q;

  const rows = useMemo(() => {
    // A top-up may repeat a row a later page also holds: show each once.
    const seen = new Set<number>();
    return (q.data?.pages ?? []).flatMap((p) => p.rows).filter((r) => !seen.has(r.id) && Boolean(seen.add(r.id)));
  }, [q.data]);

  const loadMore = useCallback(() => {
    if (isPending || isFetchingNextPage || !hasNextPage) return;
    void fetchNextPage();
  }, [isPending, isFetchingNextPage, hasNextPage, fetchNextPage]);

  const retry = useCallback(() => void refetch(), [refetch]);

  return {
    filter,
    setFilter,
    rows,
    summary: q.data?.pages[0]?.summary ?? null,
    loading: isPending && !q.isError,
    loadingMore: isFetchingNextPage,
    hasMore: Boolean(hasNextPage),
    error: q.error ? toBridgeError(q.error) : null,
    loadMore,
    retry,
  };
}

/** Whether an agent event may have added audit rows. */
export function addsActivity(e: { type: string; state?: string }): boolean {
  return e.type === 'tool_result' || (e.type === 'turn' && e.state !== 'running');
}

/**
 * New tool calls: for every listing of the session in the cache, reads the first page
 * again and puts the rows not yet shown on top, keeping the older pages already loaded.
 */
export function topUpActivity(client: QueryClient, sessionId: string): void {
  for (const query of client.getQueryCache().findAll({ queryKey: queryKeys.activityAll(sessionId) })) {
    const [, , , filter, pageSize] = query.queryKey as ReturnType<typeof queryKeys.activity>;
    bridge.activityLog(sessionId, filter, 0, pageSize).then(
      (p) => client.setQueryData<Pages>(query.queryKey, (data) => (data ? topUp(data, p) : data)),
      () => {}, // the next call or a retry shows the error
    );
  }
}

function topUp(data: Pages, p: ActivityPage): Pages {
  const first = data.pages[0];
  if (!first) return data;
  const newest = first.rows[0]?.id ?? 0;
  const fresh = p.rows.filter((r) => r.id > newest);
  // More new rows than one page: the loaded pages no longer join up, start over.
  if (newest > 0 && fresh.length === p.rows.length && p.nextCursor !== 0) return { pages: [p], pageParams: [0] };
  if (first.rows.length === 0) return { pages: [p, ...data.pages.slice(1)], pageParams: data.pageParams };
  const top: ActivityPage = { ...first, rows: [...fresh, ...first.rows], summary: p.summary ?? first.summary };
  return { pages: [top, ...data.pages.slice(1)], pageParams: data.pageParams };
}
