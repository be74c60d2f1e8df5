// The Files pane of a session: the files its agent wrote (artifacts) first, then the
// workspace tree with a name filter; opened files show in tabs of a read-only viewer.
import { FileText, X } from 'lucide-react';
import { useCallback, useEffect, useState, type KeyboardEvent } from 'react';
import * as bridge from '../../bridge';
import { toBridgeError, type BridgeError } from '../../bridge/errors';
import type { Artifact } from '../../bridge/files';
import { FileTree } from './FileTree';
import { FileViewer } from './FileViewer';
import { baseName } from './language';
import './files.css';

export interface FilesPanelProps {
  sessionId: string;
  /** Changes whenever the session's review records do: the artifacts are read again. */
  revision?: unknown;
  /** Inserts "@path" into the session's composer. */
  onMention?: (path: string) => void;
}

export function FilesPanel({ sessionId, revision, onMention }: FilesPanelProps) {
  const artifacts = useArtifacts(sessionId, revision);
  const [filter, setFilter] = useState('');
  const tabs = useTabs();
  return (
    <div className="files-panel">
      <div className="files-nav">
        <section aria-label="Written in this session" className="files-section">
          <h3 className="files-heading">Written in this session</h3>
          {artifacts.error && (
            <p className="file-viewer-note" role="alert">
              {artifacts.error.message}
            </p>
          )}
          {artifacts.list.length === 0 && !artifacts.error && <p className="file-viewer-note">The agent has not written any workspace file yet.</p>}
          <ul className="files-artifacts">
            {artifacts.list.map((a) => (
              <li key={a.path}>
                <button type="button" className="files-artifact" title={a.path} disabled={!a.exists} onClick={() => tabs.open(a.path)}>
                  <FileText size={13} aria-hidden="true" />
                  <span className="file-tree-name">{a.path}</span>
                  {!a.exists && <span className="muted"> (no longer there)</span>}
                </button>
              </li>
            ))}
          </ul>
        </section>
        <section aria-label="Workspace" className="files-section">
          <h3 className="files-heading">Workspace</h3>
          <input
            type="search"
            className="files-filter"
            placeholder="Filter by name"
            aria-label="Filter files by name"
            value={filter}
            onChange={(e) => setFilter(e.target.value)}
          />
          <FileTree key={sessionId} sessionId={sessionId} filter={filter} revision={revision} onOpen={tabs.open} />
        </section>
      </div>
      {tabs.list.length > 0 && (
        <div className="files-tabs-area">
          <div className="files-tabs" role="tablist" aria-label="Open files">
            {tabs.list.map((p) => (
              <div key={p} className={`files-tab${p === tabs.active ? ' files-tab-active' : ''}`}>
                <button
                  type="button"
                  role="tab"
                  id={tabId(p)}
                  aria-selected={p === tabs.active}
                  aria-controls={p === tabs.active ? 'files-tabpanel' : undefined}
                  tabIndex={p === tabs.active ? 0 : -1}
                  title={p}
                  onClick={() => tabs.setActive(p)}
                  onKeyDown={(e) => tabs.onKeyDown(e, p)}
                >
                  {baseName(p)}
                </button>
                <button type="button" className="files-tab-close" aria-label={`Close ${p}`} title={`Close ${p}`} onClick={() => tabs.close(p)}>
                  <X size={12} aria-hidden="true" />
                </button>
              </div>
            ))}
          </div>
          {tabs.active && (
            <div id="files-tabpanel" role="tabpanel" aria-labelledby={tabId(tabs.active)} className="files-tabpanel">
              <FileViewer key={tabs.active} sessionId={sessionId} path={tabs.active} onMention={onMention} />
            </div>
          )}
        </div>
      )}
    </div>
  );
}

function tabId(path: string): string {
  return `files-tab-${encodeURIComponent(path)}`;
}

function useArtifacts(sessionId: string, revision: unknown): { list: Artifact[]; error: BridgeError | null } {
  const [state, setState] = useState<{ list: Artifact[]; error: BridgeError | null }>({ list: [], error: null });
  useEffect(() => {
    let live = true;
    bridge.listArtifacts(sessionId).then(
      (list) => live && setState({ list, error: null }),
      (err: unknown) => live && setState((s) => ({ list: s.list, error: toBridgeError(err) })),
    );
    return () => {
      live = false;
    };
  }, [sessionId, revision]);
  return state;
}

/** The open files, in opening order; closing the active one activates its neighbour. */
function useTabs() {
  const [list, setList] = useState<string[]>([]);
  const [active, setActive] = useState<string | null>(null);
  const open = useCallback((path: string) => {
    setList((l) => (l.includes(path) ? l : [...l, path]));
    setActive(path);
  }, []);
  const close = (path: string) => {
    const i = list.indexOf(path);
    const next = list.filter((p) => p !== path);
    setList(next);
    if (active === path) setActive(next[Math.min(i, next.length - 1)] ?? null);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLButtonElement>, path: string) => {
    const i = list.indexOf(path);
    let to: string | undefined;
    if (e.key === 'ArrowRight') to = list[(i + 1) % list.length];
    else if (e.key === 'ArrowLeft') to = list[(i - 1 + list.length) % list.length];
    else if (e.key === 'Delete') {
      e.preventDefault();
      close(path);
      return;
    } else return;
    e.preventDefault();
    if (to) {
      setActive(to);
      document.getElementById(tabId(to))?.focus();
    }
  };
  return { list, active, open, close, setActive, onKeyDown };
}
