// Opening a session at one message (a search hit): the choice selects the session and
// leaves a jump target; the session's transcript pages earlier turns in until the
// message is loaded, scrolls to it and marks it briefly, then clears the target.
import { createContext, useCallback, useContext, useMemo, useRef, useState, type ReactNode } from 'react';
import * as bridge from '../../bridge';
import type { SearchHit } from '../../bridge/history';
import { useToasts } from '../../state/ToastContext';
import { useWorkspace } from '../../state/WorkspaceContext';
import { toBridgeError } from '../../bridge/errors';

export interface JumpTarget {
  sessionId: string;
  messageId: string;
  /** Tells two jumps to the same message apart. */
  seq: number;
}

interface JumpApi {
  target: JumpTarget | null;
  jumpTo: (hit: Pick<SearchHit, 'sessionId' | 'messageId'>) => Promise<void>;
  /** The transcript reached the target (or gave up): clears it. */
  done: (seq: number) => void;
}

const JumpContext = createContext<JumpApi | null>(null);

export function JumpProvider({ children }: { children: ReactNode }) {
  const ws = useWorkspace();
  const { reportError } = useToasts();
  const [target, setTarget] = useState<JumpTarget | null>(null);
  const seq = useRef(0);
  const { state, select } = ws;
  const known = useCallback(
    (id: string) => Object.values(state.sessions).flat().concat(state.archived ?? []).find((s) => s.id === id),
    [state.sessions, state.archived],
  );
  const jumpTo = useCallback(
    async (hit: Pick<SearchHit, 'sessionId' | 'messageId'>) => {
      let session = known(hit.sessionId);
      if (!session) {
        try {
          session = await bridge.getSession(hit.sessionId);
        } catch (err) {
          reportError(toBridgeError(err));
          return;
        }
      }
      seq.current += 1;
      setTarget({ sessionId: hit.sessionId, messageId: hit.messageId, seq: seq.current });
      select(session);
    },
    [known, select, reportError],
  );
  const done = useCallback((n: number) => setTarget((t) => (t?.seq === n ? null : t)), []);
  const api = useMemo(() => ({ target, jumpTo, done }), [target, jumpTo, done]);
  return <JumpContext.Provider value={api}>{children}</JumpContext.Provider>;
}

/** The jump API; null outside JumpProvider (components shown alone in tests). */
export function useJump(): JumpApi | null {
  return useContext(JumpContext);
}
