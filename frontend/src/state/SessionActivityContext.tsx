// Per-session activity for the sidebar: pending approval cards (from PendingApprovals,
// kept current by permission:* events), decisions the agent waits for (asktool
// questions and Plan/Goal proposals, kept current by agent:question / agent:proposal)
// and running turns (agent:turn events).
import { createContext, useContext, useEffect, useMemo, useReducer, useRef, type ReactNode } from 'react';
import * as bridge from '../bridge';
import { proposalKey, questionKey } from './decisions';
import { useWorkspace } from './WorkspaceContext';

export interface SessionActivity {
  /** Pending approval request ids by session. */
  pending: Record<string, string[]>;
  /** Pending decisions by session: `question:<id>` and `proposal:<id>` keys. */
  decisions: Record<string, string[]>;
  /** Sessions with a running turn. */
  running: Record<string, boolean>;
}

export type ActivityAction =
  | { type: 'seeded'; sessionId: string; ids: string[] }
  | { type: 'requested'; sessionId: string; id: string }
  | { type: 'resolved'; sessionId: string; id: string }
  | { type: 'decisionsSeeded'; sessionId: string; keys: string[] }
  | { type: 'decision'; sessionId: string; key: string; pending: boolean }
  | { type: 'turn'; sessionId: string; running: boolean };

export interface ActivityState extends SessionActivity {
  /** Request ids and decision keys already resolved: a late seed must not bring them back. */
  resolved: Record<string, true>;
}

export const initialActivity: ActivityState = { pending: {}, decisions: {}, running: {}, resolved: {} };

type ListField = 'pending' | 'decisions';

function withIds(state: ActivityState, field: ListField, sessionId: string, ids: string[]): ActivityState {
  const next = { ...state[field] };
  if (ids.length === 0) delete next[sessionId];
  else next[sessionId] = ids;
  return { ...state, [field]: next };
}

function seed(state: ActivityState, field: ListField, sessionId: string, ids: string[]): ActivityState {
  const cur = state[field][sessionId] ?? [];
  const merged = [...new Set([...cur, ...ids])].filter((id) => !state.resolved[id]);
  return withIds(state, field, sessionId, merged);
}

function add(state: ActivityState, field: ListField, sessionId: string, id: string): ActivityState {
  const cur = state[field][sessionId] ?? [];
  return cur.includes(id) || state.resolved[id] ? state : withIds(state, field, sessionId, [...cur, id]);
}

function remove(state: ActivityState, field: ListField, sessionId: string, id: string): ActivityState {
  const cur = state[field][sessionId] ?? [];
  return withIds({ ...state, resolved: { ...state.resolved, [id]: true } }, field, sessionId, cur.filter((x) => x !== id));
}

export function activityReducer(state: ActivityState, action: ActivityAction): ActivityState {
  switch (action.type) {
    case 'seeded':
      return seed(state, 'pending', action.sessionId, action.ids);
    case 'requested':
      return add(state, 'pending', action.sessionId, action.id);
    case 'resolved':
      return remove(state, 'pending', action.sessionId, action.id);
    case 'decisionsSeeded':
      return seed(state, 'decisions', action.sessionId, action.keys);
    case 'decision':
      return action.pending ? add(state, 'decisions', action.sessionId, action.key) : remove(state, 'decisions', action.sessionId, action.key);
    case 'turn': {
      let next = state;
      // Questions and proposals live as long as their turn: an ended turn leaves none.
      if (!action.running && (state.decisions[action.sessionId]?.length ?? 0) > 0) {
        const resolved = { ...state.resolved };
        for (const k of state.decisions[action.sessionId] ?? []) resolved[k] = true;
        next = withIds({ ...state, resolved }, 'decisions', action.sessionId, []);
      }
      if (Boolean(next.running[action.sessionId]) === action.running) return next;
      const running = { ...next.running };
      if (action.running) running[action.sessionId] = true;
      else delete running[action.sessionId];
      return { ...next, running };
    }
  }
}

/** How many cards wait for the user in a session: approvals plus questions and proposals. */
export function waitingCount(activity: SessionActivity, sessionId: string): number {
  return (activity.pending[sessionId]?.length ?? 0) + (activity.decisions[sessionId]?.length ?? 0);
}

const ActivityContext = createContext<SessionActivity>({ pending: {}, decisions: {}, running: {} });

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
    const offDecision = bridge.onDecisionEvent((e) => {
      if (e.type === 'question') {
        dispatch({ type: 'decision', sessionId: e.sessionId, key: questionKey(e.question.questionId), pending: e.question.state === 'pending' });
      } else {
        dispatch({ type: 'decision', sessionId: e.sessionId, key: proposalKey(e.proposal.proposalId), pending: e.proposal.state === 'pending' });
      }
    });
    return () => {
      offPermission();
      offAgent();
      offDecision();
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
        Promise.all([bridge.pendingQuestions(s.id).catch(() => []), bridge.proposals(s.id).catch(() => [])]).then(([qs, ps]) => {
          const keys = [
            ...qs.filter((q) => q.sessionId === s.id && q.state === 'pending').map((q) => questionKey(q.questionId)),
            ...ps.filter((p) => p.sessionId === s.id && p.state === 'pending').map((p) => proposalKey(p.proposalId)),
          ];
          if (keys.length > 0) dispatch({ type: 'decisionsSeeded', sessionId: s.id, keys });
        });
      }
    }
  }, [ws.sessions]);

  const value = useMemo(
    () => ({ pending: state.pending, decisions: state.decisions, running: state.running }),
    [state.pending, state.decisions, state.running],
  );
  return <ActivityContext.Provider value={value}>{children}</ActivityContext.Provider>;
}

export function useSessionActivity(): SessionActivity {
  return useContext(ActivityContext);
}
