// What later starts of the app hand to this window (a second launch with a folder, a file
// manager opening a .piplug, --session) and what its own command line named: a folder opens as
// a project with a new session, a session is shown, a plugin goes to its install, anything else
// is said in a toast. Subscribed before the first read, so a hand-off during start-up is kept.
import { useEffect, useRef } from 'react';
import * as bridge from '../../bridge';
import type { OpenRequest } from '../../bridge';
import { useToasts } from '../../state/ToastContext';
import { useWorkspace } from '../../state/WorkspaceContext';

export interface OpenHandlers {
  /** A .piplug to install: shows its consent before anything runs. */
  onPlugin: (path: string) => void;
}

export function useOpenRequests({ onPlugin }: OpenHandlers) {
  const ws = useWorkspace();
  const { reportError, notify } = useToasts();
  // The latest callbacks, so the subscription is made once.
  const latest = useRef({ ws, reportError, notify, onPlugin });
  latest.current = { ws, reportError, notify, onPlugin };

  useEffect(() => {
    let alive = true;
    // One drain at a time, in order: a second event while one runs drains again after it.
    let chain = Promise.resolve();
    const drain = () => {
      chain = chain.then(async () => {
        let reqs: OpenRequest[];
        try {
          reqs = await bridge.pendingOpens();
        } catch (err) {
          if (alive) latest.current.reportError(err);
          return;
        }
        for (const r of reqs) {
          if (!alive) return;
          await open(r);
        }
      });
    };
    const open = async (r: OpenRequest) => {
      const { ws, reportError, notify, onPlugin } = latest.current;
      switch (r.kind) {
        case 'folder':
          try {
            const p = await bridge.addProject(r.path);
            await ws.newSession(p.id);
          } catch (err) {
            reportError(err);
          }
          return;
        case 'session':
          if (r.session) {
            if (r.session.projectId !== '') ws.setExpanded(r.session.projectId, true);
            ws.select(r.session);
          }
          return;
        case 'plugin':
          onPlugin(r.path);
          return;
        default:
          notify(r.message || `PI-Desktop cannot open ${r.path}.`);
      }
    };
    const off = bridge.onOpenRequested(drain);
    drain();
    return () => {
      alive = false;
      off();
    };
  }, []);
}
