// What the palette offers: commands that can run now, sessions, projects and Settings
// sections, fuzzy filtered by the query; past messages come from the history search.
import { useMemo } from 'react';
import * as bridge from '../../bridge';
import type { Session, ThemeSetting } from '../../bridge/types';
import { sessionTitle, THEMES } from '../../lib/labels';
import { useApp } from '../../state/AppContext';
import { useToasts } from '../../state/ToastContext';
import { useWorkspace } from '../../state/WorkspaceContext';
import { useCommands } from '../keyboard/CommandsContext';
import { fuzzyFilter } from '../keyboard/fuzzy';
import { formatShortcut, SHORTCUTS } from '../keyboard/shortcuts';
import { revealSection, SETTINGS_SECTIONS } from './settingsSections';

export type PaletteGroup = 'Commands' | 'Sessions' | 'Projects' | 'Settings';

export interface PaletteItem {
  id: string;
  group: PaletteGroup;
  label: string;
  /** A second, quieter line: a session's project, a command's shortcut is apart. */
  detail?: string;
  /** The printed shortcut of a command. */
  shortcut?: string;
  run: () => void;
}

/** Groups in the order they are listed; each shows at most this many items. */
export const GROUPS: readonly PaletteGroup[] = ['Commands', 'Sessions', 'Projects', 'Settings'];
export const PER_GROUP = 8;

export function usePaletteItems(query: string): PaletteItem[] {
  const ws = useWorkspace();
  const commands = useCommands();
  const { settings, setSettings } = useApp();
  const { reportError } = useToasts();
  const { state } = ws;

  const all = useMemo(() => {
    const items: PaletteItem[] = [];
    for (const s of SHORTCUTS) {
      if (s.id === 'palette' || !commands.available.has(s.id)) continue;
      items.push({ id: `cmd:${s.id}`, group: 'Commands', label: s.label, shortcut: formatShortcut(s, commands.mac), run: () => commands.run(s.id) });
    }
    items.push({ id: 'cmd:temporary', group: 'Commands', label: 'New temporary session', run: () => void ws.newSession('') });
    items.push({ id: 'cmd:addProject', group: 'Commands', label: 'Add project…', run: () => void ws.addProject() });
    items.push({ id: 'cmd:archived', group: 'Commands', label: 'Show archived sessions', run: () => ws.showSidebar('archived') });
    for (const t of THEMES) {
      if (!settings || settings.theme === t.value) continue;
      items.push({
        id: `cmd:theme:${t.value}`,
        group: 'Commands',
        label: `Theme: ${t.label}`,
        run: () => void setTheme(t.value),
      });
    }
    const names = new Map(state.projects.map((p) => [p.id, p.name]));
    for (const s of allSessions(state.projects.map((p) => p.id), state.sessions)) {
      items.push({
        id: `session:${s.id}`,
        group: 'Sessions',
        label: sessionTitle(s),
        detail: s.projectId === '' ? 'Temporary' : names.get(s.projectId),
        run: () => ws.select(s),
      });
    }
    for (const p of state.projects) {
      items.push({
        id: `project:${p.id}`,
        group: 'Projects',
        label: p.name,
        detail: p.path,
        // The project's newest session, or a new one when it has none.
        run: () => {
          const newest = state.sessions[p.id]?.[0];
          if (newest) ws.select(newest);
          else void ws.newSession(p.id);
        },
      });
    }
    for (const name of SETTINGS_SECTIONS) {
      items.push({
        id: `settings:${name}`,
        group: 'Settings',
        label: name,
        detail: 'Settings',
        run: () => {
          ws.showView('settings');
          revealSection(name);
        },
      });
    }
    return items;

    async function setTheme(theme: ThemeSetting) {
      if (!settings) return;
      try {
        setSettings(await bridge.updateSettings({ ...settings, theme }));
      } catch (err) {
        reportError(err);
      }
    }
  }, [commands, settings, setSettings, reportError, state.projects, state.sessions, ws]);

  return useMemo(() => {
    const out: PaletteItem[] = [];
    for (const g of GROUPS) {
      const inGroup = all.filter((it) => it.group === g);
      out.push(...fuzzyFilter(inGroup, query, (it) => (it.detail && g !== 'Settings' ? `${it.label} ${it.detail}` : it.label)).slice(0, PER_GROUP));
    }
    return out;
  }, [all, query]);
}

/** Every active session in the sidebar's order: projects in order, then temporary ones. */
export function allSessions(projectIds: string[], sessions: Record<string, Session[]>): Session[] {
  return [...projectIds, ''].flatMap((id) => sessions[id] ?? []);
}
