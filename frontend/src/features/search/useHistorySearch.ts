// A debounced search of past sessions (bridge.searchHistory, backend/history): the
// query runs once the user paused typing, and an answer to an older query is dropped.
import { useEffect, useState } from 'react';
import * as bridge from '../../bridge';
import { toBridgeError, type BridgeError } from '../../bridge/errors';
import type { SearchHit } from '../../bridge/history';

/** The trigram index needs a term of at least this many characters (backend/history minTerm). */
export const MIN_TERM = 3;
/** Milliseconds of quiet typing before a search runs. */
export const SEARCH_DEBOUNCE_MS = 200;

export type HistorySearch =
  | { status: 'idle' } // nothing to look up yet (no term long enough)
  | { status: 'loading'; hits: SearchHit[] } // the previous hits stay while the next load
  | { status: 'done'; hits: SearchHit[] }
  | { status: 'failed'; error: BridgeError };

/** True when the query has a term the index can look up. */
export function searchable(query: string): boolean {
  return query.split(/\s+/).some((t) => [...t].length >= MIN_TERM);
}

export function useHistorySearch(query: string, enabled = true): HistorySearch {
  const q = query.trim();
  const [state, setState] = useState<HistorySearch>({ status: 'idle' });
  useEffect(() => {
    if (!enabled || !searchable(q)) {
      setState({ status: 'idle' });
      return;
    }
    let live = true;
    setState((s) => ({ status: 'loading', hits: s.status === 'done' || s.status === 'loading' ? s.hits : [] }));
    const timer = setTimeout(() => {
      bridge.searchHistory(q).then(
        (hits) => live && setState({ status: 'done', hits }),
        (err: unknown) => live && setState({ status: 'failed', error: toBridgeError(err) }),
      );
    }, SEARCH_DEBOUNCE_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [q, enabled]);
  return state;
}
