// The BrowserPreview pane of one session: what the host says it shows (asked when the
// session is shown, then kept current by preview events), reloads, and its actions.
import { useCallback, useEffect, useState } from 'react';
import { closePreview, onPreviewEvent, openPreviewInBrowser, previewState, type PreviewState } from '../../bridge';

export interface PreviewApi {
  state: PreviewState | null;
  /** Bumped by Reload (and with the host's revision by a live reload): the frame's key. */
  loads: number;
  error: string;
  reload: () => void;
  openInBrowser: () => void;
  close: () => void;
}

export function usePreview(sessionId: string): PreviewApi {
  const [state, setState] = useState<PreviewState | null>(null);
  const [loads, setLoads] = useState(0);
  const [error, setError] = useState('');

  useEffect(() => {
    let live = true;
    setState(null);
    setError('');
    // Events first, so one sent while the state is fetched is not lost.
    const off = onPreviewEvent((e) => {
      // Another session's preview never shows here (spec §4b: the pane belongs to the
      // session that opened it).
      if (e.sessionId !== sessionId) return;
      if (e.type === 'closed') setState(null);
      else setState(e.state);
    });
    previewState(sessionId).then(
      (s) => {
        if (live) setState((cur) => cur ?? s);
      },
      (err: unknown) => {
        if (live) setError(err instanceof Error ? err.message : String(err));
      },
    );
    return () => {
      live = false;
      off();
    };
  }, [sessionId]);

  const reload = useCallback(() => setLoads((n) => n + 1), []);
  const openInBrowser = useCallback(() => {
    openPreviewInBrowser(sessionId).catch((err: unknown) => setError(err instanceof Error ? err.message : String(err)));
  }, [sessionId]);
  const close = useCallback(() => {
    setState(null);
    closePreview(sessionId).catch((err: unknown) => setError(err instanceof Error ? err.message : String(err)));
  }, [sessionId]);
  return { state, loads, error, reload, openInBrowser, close };
}
