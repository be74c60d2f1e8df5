import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import * as bridge from '../../bridge';
import { toBridgeError, type BridgeError } from '../../bridge/errors';
import type { AppInfo, Settings } from '../../bridge/types';
import { AppProvider } from '../../state/AppContext';
import { LiveDataProvider } from '../../state/LiveData';
import { queryKeys } from '../../state/queryKeys';
import { ToastProvider, useToasts } from '../../state/ToastContext';
import { SessionActivityProvider, useSeedActivity } from '../../state/SessionActivityContext';
import { TasksProvider } from '../tasks/TasksContext';
import { WorkspaceProvider, useWorkspace } from '../../state/WorkspaceContext';
import { ConfirmProvider } from '../../ui/Dialog';
import { Shell } from './Shell';
import { cacheRules } from './cacheRules';
import { StartupError } from './StartupError';
import { useTheme } from './useTheme';

type Boot =
  | { phase: 'loading' }
  | { phase: 'failed'; error: BridgeError }
  | { phase: 'ready'; info: AppInfo; settingsError: BridgeError | null };

/**
 * Boots the app: Info() decides between the full-window startup error and the shell.
 * Needs a QueryClientProvider above it (main.tsx; test/render.tsx in tests).
 */
export function App() {
  const [boot, setBoot] = useState<Boot>({ phase: 'loading' });
  const client = useQueryClient();

  useEffect(() => {
    let live = true;
    (async () => {
      let info: AppInfo;
      try {
        info = await bridge.info();
      } catch (err) {
        if (live) setBoot({ phase: 'failed', error: toBridgeError(err) });
        return;
      }
      let settings: Settings | null = null;
      let settingsError: BridgeError | null = null;
      try {
        settings = await bridge.getSettings();
      } catch (err) {
        settingsError = toBridgeError(err);
      }
      if (!live) return;
      client.setQueryData(queryKeys.info, info);
      if (settings) client.setQueryData(queryKeys.settings, settings);
      setBoot({ phase: 'ready', info, settingsError });
    })();
    return () => {
      live = false;
    };
  }, [client]);

  if (boot.phase === 'loading') return <Loading />;
  if (boot.phase === 'failed') return <StartupError error={boot.error} />;
  return (
    <LiveDataProvider rules={cacheRules}>
      <ToastProvider>
        <ConfirmProvider>
          <AppProvider info={boot.info}>
            <WorkspaceProvider>
              <SessionActivityProvider>
                <TasksProvider>
                  <InitialError error={boot.settingsError} />
                  <SeedActivity />
                  <Shell />
                </TasksProvider>
              </SessionActivityProvider>
            </WorkspaceProvider>
          </AppProvider>
        </ConfirmProvider>
      </ToastProvider>
    </LiveDataProvider>
  );
}

function Loading() {
  useTheme('system');
  return (
    <div className="boot-loading" role="status">
      Starting PI-Desktop…
    </div>
  );
}

/** Cards may already be waiting in any listed session (e.g. the window was reloaded). */
function SeedActivity() {
  const { state } = useWorkspace();
  const ids = useMemo(() => Object.values(state.sessions).flatMap((list) => list.map((s) => s.id)), [state.sessions]);
  useSeedActivity(ids);
  return null;
}

function InitialError({ error }: { error: BridgeError | null }) {
  const { reportError } = useToasts();
  useEffect(() => {
    if (error) reportError(error);
  }, [error, reportError]);
  return null;
}
