// The workspace tree of the Files pane: folders load one level at a time when opened,
// or, with a filter, the matching files as one flat level. WAI-ARIA tree: one tab stop,
// arrows move, Right/Left open and close folders, Enter opens a file.
import { ChevronDown, ChevronRight, File, Folder } from 'lucide-react';
import { useCallback, useEffect, useRef, useState, type KeyboardEvent } from 'react';
import * as bridge from '../../bridge';
import { toBridgeError, type BridgeError } from '../../bridge/errors';
import type { FolderEntry } from '../../bridge/files';
import { baseName } from './language';

type Folder = { state: 'loading' } | { state: 'error'; error: BridgeError } | { state: 'ready'; entries: FolderEntry[]; truncated: boolean };

interface Row {
  entry: FolderEntry;
  level: number;
  parent: string | null;
}

export interface FileTreeProps {
  sessionId: string;
  /** A name filter: non-empty shows the matching files instead of the tree. */
  filter: string;
  /** Changes when the agent may have written files: the open folders are read again. */
  revision?: unknown;
  onOpen: (path: string) => void;
}

export function FileTree({ sessionId, filter, revision, onOpen }: FileTreeProps) {
  const [folders, setFolders] = useState<Record<string, Folder>>({});
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  const [focused, setFocused] = useState<string | null>(null);
  const [found, setFound] = useState<{ files: string[]; truncated: boolean } | null>(null);
  const refs = useRef(new Map<string, HTMLLIElement>());

  const load = useCallback(
    (path: string) => {
      // A folder read again keeps its entries on screen until the new ones arrive.
      setFolders((f) => (f[path]?.state === 'ready' ? f : { ...f, [path]: { state: 'loading' } }));
      bridge.listFolder(sessionId, path).then(
        (l) => setFolders((f) => ({ ...f, [path]: { state: 'ready', entries: l.entries, truncated: l.truncated } })),
        (err: unknown) => setFolders((f) => ({ ...f, [path]: { state: 'error', error: toBridgeError(err) } })),
      );
    },
    [sessionId],
  );
  // The top, and every folder open now, is read again when the agent may have written.
  const open = useRef(expanded);
  useEffect(() => {
    open.current = expanded;
  });
  useEffect(() => {
    load('');
    for (const p of open.current) load(p);
  }, [load, revision]);

  const query = filter.trim();
  useEffect(() => {
    if (query === '') {
      setFound(null);
      return;
    }
    let live = true;
    const timer = setTimeout(() => {
      bridge.findFiles(sessionId, query).then(
        (r) => live && setFound(r),
        () => live && setFound({ files: [], truncated: false }),
      );
    }, 150);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [sessionId, query]);

  const rows: Row[] = [];
  if (query !== '') {
    for (const p of found?.files ?? []) rows.push({ entry: { name: baseName(p), path: p, dir: false }, level: 1, parent: null });
  } else {
    const walk = (path: string, level: number, parent: string | null) => {
      const f = folders[path];
      if (f?.state !== 'ready') return;
      for (const entry of f.entries) {
        rows.push({ entry, level, parent });
        if (entry.dir && expanded.has(entry.path)) walk(entry.path, level + 1, entry.path);
      }
    };
    walk('', 1, null);
  }
  const active = rows.some((r) => r.entry.path === focused) ? focused : (rows[0]?.entry.path ?? null);

  const focus = (path: string | null | undefined) => {
    if (!path) return;
    setFocused(path);
    refs.current.get(path)?.focus();
  };
  const toggle = (path: string, open: boolean) => {
    setExpanded((s) => {
      const next = new Set(s);
      if (open) next.add(path);
      else next.delete(path);
      return next;
    });
    if (open && folders[path]?.state !== 'ready') load(path);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLLIElement>, i: number) => {
    const row = rows[i]!;
    const isOpen = row.entry.dir && expanded.has(row.entry.path);
    switch (e.key) {
      case 'ArrowDown':
        focus(rows[i + 1]?.entry.path);
        break;
      case 'ArrowUp':
        focus(rows[i - 1]?.entry.path);
        break;
      case 'Home':
        focus(rows[0]?.entry.path);
        break;
      case 'End':
        focus(rows[rows.length - 1]?.entry.path);
        break;
      case 'ArrowRight':
        if (!row.entry.dir) return;
        if (isOpen) {
          if (rows[i + 1]?.parent === row.entry.path) focus(rows[i + 1]!.entry.path);
        } else toggle(row.entry.path, true);
        break;
      case 'ArrowLeft':
        if (isOpen) toggle(row.entry.path, false);
        else focus(row.parent);
        break;
      case 'Enter':
      case ' ':
        if (row.entry.dir) toggle(row.entry.path, !isOpen);
        else onOpen(row.entry.path);
        break;
      default:
        return;
    }
    e.preventDefault();
  };

  const top = folders[''];
  return (
    <div className="file-tree-wrap">
      {query === '' && top?.state === 'error' && (
        <p className="file-viewer-note" role="alert">
          {top.error.message}
        </p>
      )}
      {query === '' && top?.state === 'ready' && top.entries.length === 0 && <p className="file-viewer-note">The workspace has no files yet.</p>}
      {query !== '' && found && found.files.length === 0 && <p className="file-viewer-note">No file name matches “{query}”.</p>}
      <ul className="file-tree" role="tree" aria-label={query === '' ? 'Workspace files' : `Files matching ${query}`}>
        {rows.map((r, i) => {
          const f = r.entry.dir ? folders[r.entry.path] : undefined;
          const isOpen = r.entry.dir && expanded.has(r.entry.path);
          return (
            <li
              key={r.entry.path}
              ref={(el) => {
                if (el) refs.current.set(r.entry.path, el);
                else refs.current.delete(r.entry.path);
              }}
              role="treeitem"
              aria-level={r.level}
              aria-expanded={r.entry.dir ? isOpen : undefined}
              aria-selected={r.entry.path === active}
              tabIndex={r.entry.path === active ? 0 : -1}
              title={r.entry.path}
              className="file-tree-item"
              style={{ paddingLeft: `${(r.level - 1) * 14 + 6}px` }}
              onKeyDown={(e) => onKeyDown(e, i)}
              onFocus={() => setFocused(r.entry.path)}
              onClick={() => {
                setFocused(r.entry.path);
                if (r.entry.dir) toggle(r.entry.path, !isOpen);
                else onOpen(r.entry.path);
              }}
            >
              {r.entry.dir ? (
                isOpen ? <ChevronDown size={13} aria-hidden="true" /> : <ChevronRight size={13} aria-hidden="true" />
              ) : (
                <span className="file-tree-spacer" aria-hidden="true" />
              )}
              {r.entry.dir ? <Folder size={13} aria-hidden="true" /> : <File size={13} aria-hidden="true" />}
              <span className="file-tree-name">{query === '' ? r.entry.name : r.entry.path}</span>
              {isOpen && f?.state === 'loading' && <span className="muted"> loading…</span>}
              {isOpen && f?.state === 'error' && <span className="muted"> {f.error.message}</span>}
              {isOpen && f?.state === 'ready' && f.truncated && <span className="muted"> (first entries only; filter to find more)</span>}
            </li>
          );
        })}
      </ul>
      {query !== '' && found?.truncated && <p className="file-viewer-note">More files match; type more of the name.</p>}
    </div>
  );
}
