// The @-reference completion of the composer: typing "@" and part of a path lists
// matching workspace files; up/down choose, Enter or Tab insert, Escape closes.
import { keepPreviousData, skipToken, useQuery, useQueryClient, type PlaceholderDataFunction } from '@tanstack/react-query';
import { FileText } from 'lucide-react';
import { useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import * as bridge from '../../bridge';
import { toBridgeError, type BridgeError } from '../../bridge/errors';
import { queryKeys } from '../../state/queryKeys';
import { activeMention, insertMention, type Mention } from './mentions';

/** Wait this long after a keystroke before asking for files. */
export const SUGGEST_DELAY_MS = 60;
/** Files listed at most. */
export const SUGGEST_LIMIT = 50;

interface Results {
  query: string;
  files: string[];
  truncated: boolean;
  /** The workspace is still being indexed: more files may match later. */
  indexing: boolean;
}

/** While the workspace is being indexed, the open list asks again this often. */
export const INDEXING_REFRESH_MS = 500;

export interface FileSuggestionsApi {
  open: boolean;
  mention: Mention | null;
  results: Results | null;
  error: BridgeError | null;
  active: number;
  setActive: (i: number) => void;
  /** Handles a key of the textarea; true when it was the completion's. */
  onKeyDown: (e: KeyboardEvent<HTMLTextAreaElement>) => boolean;
  pick: (path: string) => void;
  listId: string;
}

/**
 * The reference's query text once the typing paused for SUGGEST_DELAY_MS; null while
 * no reference is open (at once, so a new reference never starts from an old query).
 */
function useSettledQuery(query: string | null): string | null {
  const [settled, setSettled] = useState<string | null>(null);
  useEffect(() => {
    if (query === null) {
      setSettled(null);
      return;
    }
    const timer = setTimeout(() => setSettled(query), SUGGEST_DELAY_MS);
    return () => clearTimeout(timer);
  }, [query]);
  return settled;
}

/**
 * Lists the files of the session's workspace for the reference being typed: one query
 * per [session, query, limit]. The shown list is always the current key's answer (or,
 * while that is on its way, the last one shown), so a slower answer to an older query
 * lands in its own cache entry and never replaces a newer one.
 */
function useFileQuery(sessionId: string | undefined, query: string | null): { results: Results | null; error: BridgeError | null } {
  const client = useQueryClient();
  // While typing, the list of the previous keystroke stays until the new one arrives;
  // once the reference closes its lists leave the cache (below), so a new "@" starts empty.
  const keepWhileCached = useCallback<PlaceholderDataFunction<Results>>(
    (previous, previousQuery) =>
      previousQuery && client.getQueryCache().get(previousQuery.queryHash) === previousQuery ? keepPreviousData(previous) : undefined,
    [client],
  );
  const closed = sessionId === undefined || query === null;
  const q = useQuery({
    queryKey: queryKeys.files(sessionId ?? '', query ?? '', SUGGEST_LIMIT),
    queryFn: closed
      ? skipToken
      : async (): Promise<Results> => {
          const r = await bridge.workspaceFiles(sessionId, query, SUGGEST_LIMIT);
          return { query, files: r.files, truncated: r.truncated, indexing: r.indexing };
        },
    // A list answered from a partial index fills in as the index grows.
    refetchInterval: (query) => (query.state.data?.indexing ? INDEXING_REFRESH_MS : false),
    // Not while closed: a placeholder taken then would be carried on to the next "@".
    placeholderData: closed ? undefined : keepWhileCached,
  });
  // Files come and go: a reference opened later asks again instead of showing an old list.
  useEffect(() => {
    if (closed && sessionId !== undefined) client.removeQueries({ queryKey: queryKeys.filesAll(sessionId) });
  }, [closed, client, sessionId]);
  // Like the list, the last answer's error stays until the next answer arrives.
  const answered = q.status !== 'pending' && !q.isPlaceholderData;
  const [lastError, setLastError] = useState<Error | null>(null);
  const error = closed ? null : answered ? q.error : lastError;
  if (error !== lastError) setLastError(error);
  if (closed) return { results: null, error: null };
  return { results: error ? null : (q.data ?? null), error: error ? toBridgeError(error) : null };
}

export function useFileSuggestions(
  text: string,
  caret: number,
  sessionId: string | undefined,
  replace: (next: string, caret: number) => void,
  listId: string,
): FileSuggestionsApi {
  const mention = useMemo(() => (sessionId !== undefined ? activeMention(text, caret) : null), [sessionId, text, caret]);
  // Escape closes the list for this reference only; typing a new "@" opens it again.
  const [dismissed, setDismissed] = useState<number | null>(null);
  const open = mention !== null && dismissed !== mention.start;
  const { results, error } = useFileQuery(sessionId, useSettledQuery(open ? mention.query : null));
  // The highlighted file belongs to the list it was chosen in: a new list starts at its top.
  const [chosen, setChosen] = useState<{ in: Results | null; index: number }>({ in: null, index: 0 });
  const active = chosen.in === results ? chosen.index : 0;
  const setActive = useCallback((index: number) => setChosen({ in: results, index }), [results]);

  useEffect(() => {
    if (mention === null) setDismissed(null);
  }, [mention]);

  const files = useMemo(() => (open && results ? results.files : []), [open, results]);

  const pick = useCallback(
    (path: string) => {
      if (!mention) return;
      const next = insertMention(text, mention, path);
      replace(next.text, next.caret);
    },
    [mention, text, replace],
  );

  const onKeyDown = useCallback(
    (e: KeyboardEvent<HTMLTextAreaElement>): boolean => {
      if (!open || e.nativeEvent.isComposing) return false;
      if (e.key === 'Escape') {
        e.preventDefault();
        setDismissed(mention.start);
        return true;
      }
      if (files.length === 0) return false;
      switch (e.key) {
        case 'ArrowDown':
          e.preventDefault();
          setActive((active + 1) % files.length);
          return true;
        case 'ArrowUp':
          e.preventDefault();
          setActive((active - 1 + files.length) % files.length);
          return true;
        case 'Enter':
        case 'Tab':
          if (e.shiftKey) return false;
          e.preventDefault();
          pick(files[Math.min(active, files.length - 1)]!);
          return true;
      }
      return false;
    },
    [open, mention, files, active, setActive, pick],
  );

  return { open, mention, results: open ? results : null, error: open ? error : null, active, setActive, onKeyDown, pick, listId };
}

function split(path: string): [string, string] {
  const i = path.lastIndexOf('/');
  return i < 0 ? [path, ''] : [path.slice(i + 1), path.slice(0, i)];
}

/** The list under the composer; options are picked with the mouse without taking focus. */
export function FileSuggestionList({ api }: { api: FileSuggestionsApi }) {
  const activeRef = useRef<HTMLLIElement>(null);
  useEffect(() => {
    activeRef.current?.scrollIntoView?.({ block: 'nearest' });
  }, [api.active]);
  if (!api.open) return null;
  const { results, error } = api;
  let status: string | null = null;
  if (error) status = `Files could not be listed: ${error.message}`;
  else if (!results) status = 'Searching files…';
  else if (results.indexing) status = results.files.length === 0 ? 'Indexing… no files match yet' : 'Indexing… more files may match';
  else if (results.files.length === 0) status = results.query ? `No files match “${results.query}”` : 'No files in this workspace';
  else if (results.truncated) status = 'More files match: keep typing to narrow the list';
  return (
    <div className="mention-popup">
      {results && results.files.length > 0 && (
        <ul className="mention-list" role="listbox" id={api.listId} aria-label="Workspace files">
          {results.files.map((f, i) => {
            const [name, dir] = split(f);
            return (
              <li
                key={f}
                id={`${api.listId}-${i}`}
                ref={i === api.active ? activeRef : undefined}
                role="option"
                aria-selected={i === api.active}
                className={i === api.active ? 'mention-option is-active' : 'mention-option'}
                onMouseDown={(e) => {
                  e.preventDefault(); // keep the caret in the textarea
                  api.pick(f);
                }}
                onMouseEnter={() => api.setActive(i)}
              >
                <FileText size={13} aria-hidden="true" />
                <span className="mention-name">{name}</span>
                {dir && <span className="mention-dir">{dir}</span>}
              </li>
            );
          })}
        </ul>
      )}
      {status && (
        <p className="mention-status" role="status">
          {status} {error && <code className="error-code">{error.code}</code>}
        </p>
      )}
    </div>
  );
}
