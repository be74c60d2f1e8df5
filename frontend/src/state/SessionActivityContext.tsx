// Per-session activity for the sidebar: pending approval cards (from PendingApprovals,
// kept current by permission:* events) and running turns (agent:turn events).
import { createContext, useContext, useEffect, useMemo, useReducer, useRef, type ReactNode } from 'react';
import * as bridge from '../bridge';
import { useWorkspace } from './WorkspaceContext';

export interface SessionActivity {
  /** Pending approval request ids by session. */
  pending: Record<string, string[]>;
  /** Sessions with a running turn. */
  running: Record<string, boolean>;
}

export type ActivityAction =
  | { type: 'seeded'; sessionId: string; ids: string[] }
  | { type: 'requested'; sessionId: string; id: string }
  | { type: 'resolved'; sessionId: string; id: string }
  | { type: 'turn'; sessionId: string; running: boolean };

export interface ActivityState extends SessionActivity {
  /** Request ids already resolved: a late seed must not bring them back. */
  resolved: Record<string, true>;
}

export const initialActivity: ActivityState = { pending: {}, running: {}, resolved: {} };

function withIds(state: ActivityState, sessionId: string, ids: string[]): ActivityState {
  const pending = { ...state.pending };
  if (ids.length === 0) delete pending[sessionId];
  else pending[sessionId] = ids;
  return { ...state, pending };
}

export function activityReducer(state: ActivityState, action: ActivityAction): ActivityState {
  const cur = state.pending[action.sessionId] ?? [];
  switch (action.type) {
    case 'seeded': {
      const merged = [...new Set([...cur, ...action.ids])].filter((id) => !state.resolved[id]);
      return withIds(state, action.sessionId, merged);
    }
    case 'requested':
      return cur.includes(action.id) || state.resolved[action.id] ? state : withIds(state, action.sessionId, [...cur, action.id]);
    case 'resolved':
      return withIds({ ...state, resolved: { ...state.resolved, [action.id]: true } }, action.sessionId, cur.filter((id) => id !== action.id));
    case 'turn': {
      if (Boolean(state.running[action.sessionId]) === action.running) return state;
      const running = { ...state.running };
      if (action.running) running[action.sessionId] = true;
      else delete running[action.sessionId];
      return { ...state, running };
    }
  }
}

const ActivityContext = createContext<SessionActivity>({ pending: {}, running: {} });

export function SessionActivityProvider({ children }: { children: ReactNode }) {
  const [state, dispatch] = useReducer(activityReducer, initialActivity);
  const { state: ws } = useWorkspace();
  const seeded = useRef(new Set<string>());

  useEffect(() => {
    const offPermission = bridge.onPermissionEvent((e) => {
      if (e.type === 'permission_request') dispatch({ type: 'requested', sessionId: e.sessionId, id: e.request.id });
      else dispatch({ type: 'resolved', sessionId: e.sessionId, id: e.id });
    });
    const offAgent = bridge.onAgentEvent((e) => {
      if (e.type === 'turn') dispatch({ type: 'turn', sessionId: e.sessionId, running: e.state === 'running' });
    });
    return () => {
      offPermission();
      offAgent();
    };
  }, []);

  // Cards may already be waiting (e.g. the window was reloaded): ask once per session.
  useEffect(() => {
    for (const list of Object.values(ws.sessions)) {
      for (const s of list) {
        if (seeded.current.has(s.id)) continue;
        seeded.current.add(s.id);
        bridge.pendingApprovals(s.id).then(
          (reqs) => dispatch({ type: 'seeded', sessionId: s.id, ids: reqs.filter((r) => r.sessionId === s.id).map((r) => r.id) }),
          () => {},
        );
      }
    }
  }, [ws.sessions]);

  const value = useMemo(() => ({ pending: state.pending, running: state.running }), [state.pending, state.running]);
  return <ActivityContext.Provider value={value}>{children}</ActivityContext.Provider>;
}

export function useSessionActivity(): SessionActivity {
  return useContext(ActivityContext);
}
