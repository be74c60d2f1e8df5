// The one way backend events reach the screen: a single SessionEventRouter subscribed to
// the bridge, shared through context, plus the rules (passed in by the app) that turn
// events into query-cache invalidations. Hooks subscribe here, by session, never to
// the bridge.
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { createContext, useContext, useEffect, useRef, useState, type ReactNode } from 'react';
import { SessionEventRouter, type Channel, type SessionEventMap } from './sessionEvents';

/** Wires events to cache updates; returns the unsubscribe. */
export type CacheRules = (client: QueryClient, router: SessionEventRouter) => () => void;

const RouterContext = createContext<SessionEventRouter | null>(null);

export function LiveDataProvider({ rules, children }: { rules?: CacheRules; children: ReactNode }) {
  const client = useQueryClient();
  const [router] = useState(() => new SessionEventRouter());
  // Listeners of children register first (effects run inside out); the bridge is
  // subscribed once they are in place.
  useEffect(() => router.connect(), [router]);
  useEffect(() => rules?.(client, router), [rules, client, router]);
  return <RouterContext.Provider value={router}>{children}</RouterContext.Provider>;
}

export function useEventRouter(): SessionEventRouter {
  const router = useContext(RouterContext);
  if (!router) throw new Error('useEventRouter outside LiveDataProvider');
  return router;
}

/**
 * Calls cb with the session's events on a channel (ANY_SESSION: every session's) while
 * mounted. cb may change between renders without resubscribing.
 */
export function useSessionEvent<C extends Channel>(channel: C, sessionId: string, cb: (e: SessionEventMap[C]) => void): void {
  const router = useEventRouter();
  const latest = useRef(cb);
  useEffect(() => {
    latest.current = cb;
  });
  useEffect(() => router.on(channel, sessionId, (e) => latest.current(e)), [router, channel, sessionId]);
}
