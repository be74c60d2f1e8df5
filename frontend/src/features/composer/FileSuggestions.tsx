// The @-reference completion of the composer: typing "@" and part of a path lists
// matching workspace files; up/down choose, Enter or Tab insert, Escape closes.
import { FileText } from 'lucide-react';
import { useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { toBridgeError, type BridgeError } from '../../bridge/errors';
import type { WorkspaceFiles } from '../../bridge/types';
import { activeMention, insertMention, type Mention } from './mentions';

/** Wait this long after a keystroke before asking for files. */
export const SUGGEST_DELAY_MS = 60;
/** Files listed at most. */
export const SUGGEST_LIMIT = 50;

export type SuggestFiles = (query: string, limit: number) => Promise<WorkspaceFiles>;

interface Results {
  query: string;
  files: string[];
  truncated: boolean;
}

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

export function useFileSuggestions(
  text: string,
  caret: number,
  suggest: SuggestFiles | undefined,
  replace: (next: string, caret: number) => void,
  listId: string,
): FileSuggestionsApi {
  const mention = useMemo(() => (suggest ? activeMention(text, caret) : null), [suggest, text, caret]);
  // Escape closes the list for this reference only; typing a new "@" opens it again.
  const [dismissed, setDismissed] = useState<number | null>(null);
  const open = mention !== null && dismissed !== mention.start;
  const query = open ? mention.query : null;
  const [results, setResults] = useState<Results | null>(null);
  const [error, setError] = useState<BridgeError | null>(null);
  const [active, setActive] = useState(0);
  const seq = useRef(0);

  useEffect(() => {
    if (query === null || !suggest) return;
    const n = ++seq.current;
    const timer = setTimeout(() => {
      suggest(query, SUGGEST_LIMIT).then(
        (r) => {
          if (n !== seq.current) return; // a later keystroke asked again
          setResults({ query, files: r.files, truncated: r.truncated });
          setError(null);
          setActive(0);
        },
        (err: unknown) => {
          if (n !== seq.current) return;
          setResults(null);
          setError(toBridgeError(err));
        },
      );
    }, SUGGEST_DELAY_MS);
    return () => clearTimeout(timer);
  }, [query, suggest]);

  useEffect(() => {
    if (mention === null) {
      setDismissed(null);
      setResults(null);
      setError(null);
    }
  }, [mention]);

  const files = useMemo(() => (open && results ? results.files : []), [open, results]);

  const pick = useCallback(
    (path: string) => {
      if (!mention) return;
      const next = insertMention(text, mention, path);
      setResults(null);
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
          setActive((a) => (a + 1) % files.length);
          return true;
        case 'ArrowUp':
          e.preventDefault();
          setActive((a) => (a - 1 + files.length) % files.length);
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
    [open, mention, files, active, pick],
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
