// App-wide facts loaded once at startup: AppInfo and the current Settings (kept fresh by
// settings:changed and by saves from the settings view).
import { createContext, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import * as bridge from '../bridge';
import type { AppInfo, Settings } from '../bridge/types';

interface AppApi {
  info: AppInfo;
  /** null until loaded (or when loading failed). */
  settings: Settings | null;
  setSettings: (s: Settings) => void;
}

const AppContext = createContext<AppApi | null>(null);

export function AppProvider({ info, initialSettings, children }: { info: AppInfo; initialSettings: Settings | null; children: ReactNode }) {
  const [settings, setSettings] = useState<Settings | null>(initialSettings);
  useEffect(() => bridge.onSettingsChanged(setSettings), []);
  const api = useMemo(() => ({ info, settings, setSettings }), [info, settings]);
  return <AppContext.Provider value={api}>{children}</AppContext.Provider>;
}

export function useApp(): AppApi {
  const ctx = useContext(AppContext);
  if (!ctx) throw new Error('useApp outside AppProvider');
  return ctx;
}
