import { useApp } from '../../state/AppContext';
import { useToasts } from '../../state/ToastContext';
import { useWorkspace } from '../../state/WorkspaceContext';
import { Toasts } from '../../ui/Toasts';
import { SettingsView } from '../settings/SettingsView';
import { Sidebar } from '../sidebar/Sidebar';
import { SessionPane } from '../transcript/SessionPane';
import { useOpenRequests } from './useOpenRequests';
import { useTheme } from './useTheme';
import { useWindowTitle } from './useWindowTitle';
import { Welcome } from './Welcome';
import { CommandsProvider } from '../keyboard/CommandsContext';
import { KeyboardLayer } from '../keyboard/KeyboardLayer';
import { isMacPlatform } from '../keyboard/shortcuts';
import { JumpProvider } from '../search/JumpContext';

export function Shell() {
  const { settings, info } = useApp();
  useTheme(settings?.theme);
  useWindowTitle();
  const ws = useWorkspace();
  const { toasts, dismiss } = useToasts();
  useOpenRequests({ onPlugin: (path) => ws.showView('settings', { installPlugin: path }) });
  const { selected, view, projects } = ws.state;

  let main;
  if (view === 'settings') main = <SettingsView onClose={() => ws.showView('session')} />;
  else if (selected) main = <SessionPane session={selected} project={projects.find((p) => p.id === selected.projectId)} />;
  else main = <Welcome />;

  return (
    <CommandsProvider mac={isMacPlatform(info.platform)}>
      <JumpProvider>
        <div className="shell">
          <Sidebar />
          <main className="main">{main}</main>
          <Toasts toasts={toasts} onDismiss={dismiss} />
          <KeyboardLayer />
        </div>
      </JumpProvider>
    </CommandsProvider>
  );
}
