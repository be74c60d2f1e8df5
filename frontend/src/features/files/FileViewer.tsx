// A read-only view of one workspace file: line numbers and syntax highlighting (the
// highlighter is loaded on first use), reloaded when the file changes on disk, with
// Reveal, Open in editor and Mention. Binary and large files show the backend's note.
import DOMPurify from 'dompurify';
import { AtSign, ExternalLink, FolderOpen } from 'lucide-react';
import { useEffect, useMemo, useState } from 'react';
import * as bridge from '../../bridge';
import { toBridgeError, type BridgeError } from '../../bridge/errors';
import type { FileView } from '../../bridge/files';
import { Button } from '../../ui/Button';
import { languageForPath } from './language';

/** How often an open, visible viewer asks whether its file changed. */
export const POLL_MS = 2000;

type Highlighter = typeof import('../../lib/highlight');

export interface FileViewerProps {
  sessionId: string;
  path: string;
  /** Inserts "@path" into the composer; without it there is no Mention button. */
  onMention?: (path: string) => void;
}

export function FileViewer({ sessionId, path, onMention }: FileViewerProps) {
  const file = useLiveFile(sessionId, path);
  const [actionError, setActionError] = useState<BridgeError | null>(null);
  const act = (f: () => Promise<void>) => {
    setActionError(null);
    f().catch((err: unknown) => setActionError(toBridgeError(err)));
  };
  return (
    <div className="file-viewer">
      <div className="file-viewer-bar" role="toolbar" aria-label={`Actions for ${path}`}>
        <span className="file-viewer-path" title={path}>
          {path}
        </span>
        <Button size="sm" variant="ghost" icon={<FolderOpen size={14} aria-hidden="true" />} onClick={() => act(() => bridge.revealFile(sessionId, path))}>
          Reveal in file manager
        </Button>
        <Button size="sm" variant="ghost" icon={<ExternalLink size={14} aria-hidden="true" />} onClick={() => act(() => bridge.openFileInEditor(sessionId, path))}>
          Open in editor
        </Button>
        {onMention && (
          <Button size="sm" variant="ghost" icon={<AtSign size={14} aria-hidden="true" />} onClick={() => onMention(path)}>
            Mention
          </Button>
        )}
      </div>
      {actionError && (
        <p className="file-viewer-note" role="alert">
          {actionError.message}
        </p>
      )}
      {file.state === 'loading' && <p className="file-viewer-note">Loading…</p>}
      {file.state === 'error' && (
        <p className="file-viewer-note" role="alert">
          {file.error.message}
        </p>
      )}
      {file.state === 'gone' && (
        <p className="file-viewer-note" role="status">
          This file no longer exists; it may have been moved or deleted.
        </p>
      )}
      {file.state === 'ready' && (file.view.note ? <p className="file-viewer-note">{file.view.note}</p> : <Code text={file.view.text} path={path} />)}
    </div>
  );
}

type LiveFile =
  | { state: 'loading' }
  | { state: 'error'; error: BridgeError }
  | { state: 'gone' }
  | { state: 'ready'; view: FileView };

/** The file, read again whenever its stamp changes while the window is visible. */
function useLiveFile(sessionId: string, path: string): LiveFile {
  const [file, setFile] = useState<LiveFile>({ state: 'loading' });
  useEffect(() => {
    let live = true;
    let stamp = '';
    let busy = false;
    const load = async () => {
      try {
        const view = await bridge.viewFile(sessionId, path);
        if (!live) return;
        stamp = view.stamp;
        setFile({ state: 'ready', view });
      } catch (err) {
        if (!live) return;
        const e = toBridgeError(err);
        setFile(e.code === 'NOT_FOUND' ? { state: 'gone' } : { state: 'error', error: e });
      }
    };
    const poll = async () => {
      if (busy || document.visibilityState === 'hidden') return;
      busy = true;
      try {
        const now = await bridge.fileStampOf(sessionId, path);
        if (!live) return;
        if (!now.exists) {
          stamp = '';
          setFile({ state: 'gone' });
        } else if (now.stamp !== stamp) {
          await load();
        }
      } catch {
        // A failed poll is tried again at the next tick.
      } finally {
        busy = false;
      }
    };
    setFile({ state: 'loading' });
    void load();
    const timer = setInterval(() => void poll(), POLL_MS);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, [sessionId, path]);
  return file;
}

/** The text with a line-number gutter; highlighted once the highlighter has loaded. */
function Code({ text, path }: { text: string; path: string }) {
  const [hl, setHl] = useState<Highlighter | null>(null);
  const language = languageForPath(path);
  useEffect(() => {
    if (language === null) return;
    let live = true;
    void import('../../lib/highlight').then((m) => live && setHl(m));
    return () => {
      live = false;
    };
  }, [language]);
  const lines = useMemo(() => {
    const n = text.split('\n').length;
    return text.endsWith('\n') ? n - 1 : n;
  }, [text]);
  const html = useMemo(() => {
    const out = hl ? hl.highlight(text, language) : null;
    return out === null ? null : DOMPurify.sanitize(out, { ALLOWED_TAGS: ['span'], ALLOWED_ATTR: ['class'] });
  }, [hl, text, language]);
  return (
    <div className="file-code" data-language={language ?? undefined}>
      <pre className="file-code-gutter" aria-hidden="true">
        {Array.from({ length: Math.max(lines, 1) }, (_, i) => i + 1).join('\n')}
      </pre>
      {html === null ? (
        <pre className="file-code-text" aria-label={`Content of ${path}`}>
          <code>{text}</code>
        </pre>
      ) : (
        <pre className="file-code-text" aria-label={`Content of ${path}`}>
          <code className="hljs" dangerouslySetInnerHTML={{ __html: html }} />
        </pre>
      )}
    </div>
  );
}
