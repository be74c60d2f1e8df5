import { createContext, useContext, useMemo, type ReactNode } from 'react';

export interface VizSettings {
  sessionId: string;
  /** AppSettings.inlineVisualizations: off means reference lines are stripped. */
  enabled: boolean;
  /** The running turn: its references wait until it ends. */
  activeTurnId: string | null;
}

const VizContext = createContext<VizSettings>({ sessionId: '', enabled: false, activeTurnId: null });

export function VizProvider({ sessionId, enabled, activeTurnId, children }: VizSettings & { children: ReactNode }) {
  const value = useMemo(() => ({ sessionId, enabled, activeTurnId }), [sessionId, enabled, activeTurnId]);
  return <VizContext.Provider value={value}>{children}</VizContext.Provider>;
}

export function useViz(): VizSettings {
  return useContext(VizContext);
}
