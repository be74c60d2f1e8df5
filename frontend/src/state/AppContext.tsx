// App-wide facts loaded once at startup: AppInfo and the current Settings. Settings live
// in the query cache (seeded at boot, replaced by settings:changed and by saves from the
// settings view); this context only reads them.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createContext, useCallback, useContext, useMemo, type ReactNode } from 'react';
import * as bridge from '../bridge';
import type { AppInfo, Settings } from '../bridge/types';
import { queryKeys } from './queryKeys';

interface AppApi {
  info: AppInfo;
  /** null until loaded (or when loading failed). */
  settings: Settings | null;
  setSettings: (s: Settings) => void;
}

const AppContext = createContext<AppApi | null>(null);

export function AppProvider({ info, children }: { info: AppInfo; children: ReactNode }) {
  const client = useQueryClient();
  // Never read from here: boot seeds the settings, events and saves replace them.
  const { data } = useQuery({ queryKey: queryKeys.settings, queryFn: bridge.getSettings, enabled: false });
  const settings = data ?? null;
  const setSettings = useCallback((s: Settings) => void client.setQueryData(queryKeys.settings, s), [client]);
  const api = useMemo(() => ({ info, settings, setSettings }), [info, settings, setSettings]);
  return <AppContext.Provider value={api}>{children}</AppContext.Provider>;
}

export function useApp(): AppApi {
  const ctx = useContext(AppContext);
  if (!ctx) throw new Error('useApp outside AppProvider');
  return ctx;
}
