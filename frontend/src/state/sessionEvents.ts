// Routes the bridge's per-session events by session id: one subscription to the bridge
// for the whole app, and each listener hears only its session (or, with ANY_SESSION,
// every session: the app-wide stores). Hooks never filter events themselves.
import * as bridge from '../bridge';
import type { AgentEvent, DecisionEvent, PermissionEvent, TaskEvent, TodosEvent, WorktreeSetupEvent } from '../bridge/types';

/** The per-session event channels and their payloads. */
export interface SessionEventMap {
  agent: AgentEvent;
  permission: PermissionEvent;
  decision: DecisionEvent;
  task: TaskEvent;
  todos: TodosEvent;
  worktree: WorktreeSetupEvent;
}

export type Channel = keyof SessionEventMap;

/** Listens to a channel for every session. */
export const ANY_SESSION = '*';

type Listener<C extends Channel> = (e: SessionEventMap[C]) => void;

export class SessionEventRouter {
  private readonly listeners = new Map<string, Set<(e: never) => void>>();

  /** Subscribes to one session's (or ANY_SESSION's) events on a channel; returns the unsubscribe. */
  on<C extends Channel>(channel: C, sessionId: string, cb: Listener<C>): () => void {
    const key = `${channel}\u0000${sessionId}`;
    let set = this.listeners.get(key);
    if (!set) this.listeners.set(key, (set = new Set()));
    set.add(cb);
    return () => {
      set.delete(cb);
      if (set.size === 0 && this.listeners.get(key) === set) this.listeners.delete(key);
    };
  }

  /** Hands an event to the listeners of its session, then to those of every session. */
  dispatch<C extends Channel>(channel: C, e: SessionEventMap[C]): void {
    for (const target of [e.sessionId, ANY_SESSION]) {
      const set = this.listeners.get(`${channel}\u0000${target}`);
      if (!set) continue;
      for (const cb of [...set] as Listener<C>[]) cb(e);
    }
  }

  /** Subscribes to the bridge, once for all channels; returns the unsubscribe. */
  connect(): () => void {
    const offs = [
      bridge.onAgentEvent((e) => this.dispatch('agent', e)),
      bridge.onPermissionEvent((e) => this.dispatch('permission', e)),
      bridge.onDecisionEvent((e) => this.dispatch('decision', e)),
      bridge.onTaskEvent((e) => this.dispatch('task', e)),
      bridge.onTodos((e) => this.dispatch('todos', e)),
      bridge.onWorktreeSetup((e) => this.dispatch('worktree', e)),
    ];
    return () => offs.forEach((off) => off());
  }
}
