import { useEffect, useState } from 'react';
import * as bridge from '../../bridge';
import { toBridgeError, type BridgeError } from '../../bridge/errors';
import type { AppInfo, Settings } from '../../bridge/types';
import { AppProvider } from '../../state/AppContext';
import { ToastProvider, useToasts } from '../../state/ToastContext';
import { SessionActivityProvider } from '../../state/SessionActivityContext';
import { TasksProvider } from '../tasks/TasksContext';
import { WorkspaceProvider } from '../../state/WorkspaceContext';
import { ConfirmProvider } from '../../ui/Dialog';
import { Shell } from './Shell';
import { StartupError } from './StartupError';
import { useTheme } from './useTheme';

type Boot =
  | { phase: 'loading' }
  | { phase: 'failed'; error: BridgeError }
  | { phase: 'ready'; info: AppInfo; settings: Settings | null; settingsError: BridgeError | null };

/** Boots the app: Info() decides between the full-window startup error and the shell. */
export function App() {
  const [boot, setBoot] = useState<Boot>({ phase: 'loading' });

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
      try {
        const settings = await bridge.getSettings();
        if (live) setBoot({ phase: 'ready', info, settings, settingsError: null });
      } catch (err) {
        if (live) setBoot({ phase: 'ready', info, settings: null, settingsError: toBridgeError(err) });
      }
    })();
    return () => {
      live = false;
    };
  }, []);

  if (boot.phase === 'loading') return <Loading />;
  if (boot.phase === 'failed') return <StartupError error={boot.error} />;
  return (
    <ToastProvider>
      <ConfirmProvider>
        <AppProvider info={boot.info} initialSettings={boot.settings}>
          <WorkspaceProvider>
            <SessionActivityProvider>
              <TasksProvider>
                <InitialError error={boot.settingsError} />
                <Shell />
              </TasksProvider>
            </SessionActivityProvider>
          </WorkspaceProvider>
        </AppProvider>
      </ConfirmProvider>
    </ToastProvider>
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

function InitialError({ error }: { error: BridgeError | null }) {
  const { reportError } = useToasts();
  useEffect(() => {
    if (error) reportError(error);
  }, [error, reportError]);
  return null;
}
