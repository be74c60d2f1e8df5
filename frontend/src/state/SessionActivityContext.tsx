// The one record of what each session waits for: pending approval cards (from
// PendingApprovals, kept current by permission:* events), the decision cards the agent
// waits for (asktool questions and Plan/Goal proposals, one decisionsReducer state per
// session) and running turns (agent:turn events). The sidebar's badges and the
// composer's decision cards both read it; nothing else tracks "waiting for the user".
// Events arrive through the session event router, never straight from the bridge.
import { createContext, useCallback, useContext, useEffect, useMemo, useReducer, useRef, type Dispatch, type ReactNode } from 'react';
import * as bridge from '../bridge';
import { useEventRouter } from './LiveData';
import { ANY_SESSION } from './sessionEvents';
import { decisionsReducer, initialDecisions, isPending, type DecisionsAction, type DecisionsState } from './decisions';

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
  | { type: 'decisions'; sessionId: string; action: DecisionsAction }
  | { type: 'turn'; sessionId: string; turnId: string; running: boolean };

export interface ActivityState {
  pending: Record<string, string[]>;
  /** Approval request ids already resolved: a late seed must not bring them back. */
  resolved: Record<string, true>;
  /** Each session's decision cards. */
  sessions: Record<string, DecisionsState>;
  running: Record<string, boolean>;
}

export const initialActivity: ActivityState = { pending: {}, resolved: {}, sessions: {}, running: {} };

function withIds(state: ActivityState, sessionId: string, ids: string[]): ActivityState {
  const pending = { ...state.pending };
  if (ids.length === 0) delete pending[sessionId];
  else pending[sessionId] = ids;
  return { ...state, pending };
}

function decide(state: ActivityState, sessionId: string, action: DecisionsAction): ActivityState {
  const cur = state.sessions[sessionId] ?? initialDecisions(sessionId);
  const next = decisionsReducer(cur, action);
  return next === state.sessions[sessionId] ? state : { ...state, sessions: { ...state.sessions, [sessionId]: next } };
}

export function activityReducer(state: ActivityState, action: ActivityAction): ActivityState {
  switch (action.type) {
    case 'seeded': {
      const cur = state.pending[action.sessionId] ?? [];
      const merged = [...new Set([...cur, ...action.ids])].filter((id) => !state.resolved[id]);
      return withIds(state, action.sessionId, merged);
    }
    case 'requested': {
      const cur = state.pending[action.sessionId] ?? [];
      return cur.includes(action.id) || state.resolved[action.id] ? state : withIds(state, action.sessionId, [...cur, action.id]);
    }
    case 'resolved': {
      const cur = state.pending[action.sessionId] ?? [];
      return withIds({ ...state, resolved: { ...state.resolved, [action.id]: true } }, action.sessionId, cur.filter((x) => x !== action.id));
    }
    case 'decisions':
      return decide(state, action.sessionId, action.action);
    case 'turn': {
      let next = state;
      if (state.sessions[action.sessionId]) {
        next = decide(state, action.sessionId, action.running ? { type: 'turnStarted', turnId: action.turnId } : { type: 'turnEnded' });
      }
      if (Boolean(next.running[action.sessionId]) === action.running) return next;
      const running = { ...next.running };
      if (action.running) running[action.sessionId] = true;
      else delete running[action.sessionId];
      return { ...next, running };
    }
  }
}

/** The sidebar's view: derived from the decision cards, never kept beside them. */
export function sessionActivity(state: ActivityState): SessionActivity {
  const decisions: Record<string, string[]> = {};
  for (const [id, d] of Object.entries(state.sessions)) {
    const keys = d.cards.filter(isPending).map((c) => c.key);
    if (keys.length > 0) decisions[id] = keys;
  }
  return { pending: state.pending, decisions, running: state.running };
}

/** How many cards wait for the user in a session: approvals plus questions and proposals. */
export function waitingCount(activity: SessionActivity, sessionId: string): number {
  return (activity.pending[sessionId]?.length ?? 0) + (activity.decisions[sessionId]?.length ?? 0);
}

interface Store {
  state: ActivityState;
  dispatch: Dispatch<ActivityAction>;
  /** Reads what waits in a session (approvals, questions, proposals); events that arrive meanwhile apply after it. */
  load: (sessionId: string, parts?: { approvals: boolean }) => void;
}

const StoreContext = createContext<Store | null>(null);
const ActivityContext = createContext<SessionActivity>({ pending: {}, decisions: {}, running: {} });

export function SessionActivityProvider({ children }: { children: ReactNode }) {
  const [state, dispatch] = useReducer(activityReducer, initialActivity);
  const router = useEventRouter();
  // Decision events of a session whose load is on its way wait for it: the load must not
  // close a card as "no longer waiting" that an event just brought.
  const loads = useRef(new Map<string, { buffer: ActivityAction[]; count: number }>());
  const put = useCallback((sessionId: string, a: ActivityAction) => {
    const l = loads.current.get(sessionId);
    if (l) l.buffer.push(a);
    else dispatch(a);
  }, []);

  useEffect(() => {
    const offs = [
      router.on('permission', ANY_SESSION, (e) => {
        if (e.type === 'permission_request') dispatch({ type: 'requested', sessionId: e.sessionId, id: e.request.id });
        else dispatch({ type: 'resolved', sessionId: e.sessionId, id: e.id });
      }),
      router.on('agent', ANY_SESSION, (e) => {
        // A delegate's own turn is not the session's: it neither starts nor ends it.
        if (e.type === 'turn' && e.delegationId === '') put(e.sessionId, { type: 'turn', sessionId: e.sessionId, turnId: e.turnId, running: e.state === 'running' });
      }),
      router.on('decision', ANY_SESSION, (event) => put(event.sessionId, { type: 'decisions', sessionId: event.sessionId, action: { type: 'event', event } })),
    ];
    return () => offs.forEach((off) => off());
  }, [router, put]);

  const load = useCallback((sessionId: string, parts = { approvals: false }) => {
    if (parts.approvals) {
      bridge.pendingApprovals(sessionId).then(
        (reqs) => dispatch({ type: 'seeded', sessionId, ids: reqs.filter((r) => r.sessionId === sessionId).map((r) => r.id) }),
        () => {},
      );
    }
    let l = loads.current.get(sessionId);
    if (!l) loads.current.set(sessionId, (l = { buffer: [], count: 0 }));
    const mine = l;
    mine.count++;
    Promise.all([bridge.pendingQuestions(sessionId).catch(() => []), bridge.proposals(sessionId).catch(() => [])]).then(([questions, proposals]) => {
      dispatch({ type: 'decisions', sessionId, action: { type: 'loaded', questions, proposals } });
      // Overlapping loads share the buffer: the last one to land replays it.
      if (--mine.count > 0) return;
      loads.current.delete(sessionId);
      for (const a of mine.buffer) dispatch(a);
    });
  }, []);

  const store = useMemo(() => ({ state, dispatch, load }), [state, load]);
  const activity = useMemo(() => sessionActivity(state), [state]);
  return (
    <StoreContext.Provider value={store}>
      <ActivityContext.Provider value={activity}>{children}</ActivityContext.Provider>
    </StoreContext.Provider>
  );
}

export function useSessionActivity(): SessionActivity {
  return useContext(ActivityContext);
}

/** One session's decision cards from the store, with the means to change them. */
export function useSessionDecisions(sessionId: string): {
  state: DecisionsState;
  dispatch: (a: DecisionsAction) => void;
  load: () => void;
} {
  const store = useContext(StoreContext);
  if (!store) throw new Error('useSessionDecisions outside SessionActivityProvider');
  const { dispatch: storeDispatch, load: storeLoad } = store;
  const state = store.state.sessions[sessionId] ?? initialDecisions(sessionId);
  const dispatch = useCallback((action: DecisionsAction) => storeDispatch({ type: 'decisions', sessionId, action }), [storeDispatch, sessionId]);
  const load = useCallback(() => storeLoad(sessionId), [storeLoad, sessionId]);
  return { state, dispatch, load };
}

/** Asks once per session listed what already waits (e.g. the window was reloaded). */
export function useSeedActivity(sessionIds: string[]): void {
  const store = useContext(StoreContext);
  if (!store) throw new Error('useSeedActivity outside SessionActivityProvider');
  const { load } = store;
  const seeded = useRef(new Set<string>());
  useEffect(() => {
    for (const id of sessionIds) {
      if (seeded.current.has(id)) continue;
      seeded.current.add(id);
      load(id, { approvals: true });
    }
  }, [sessionIds, load]);
}
