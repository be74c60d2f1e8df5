// The window-wide keyboard commands: the palette, the `?` overlay, new session, moving
// between sessions and Settings. Session commands (Stop, the panes, the message box)
// are registered by the open session.
import { useState } from 'react';
import { useWorkspace } from '../../state/WorkspaceContext';
import { CommandPalette } from '../palette/CommandPalette';
import { allSessions } from '../palette/usePaletteItems';
import { useCommand, useMac } from './CommandsContext';
import { ShortcutsOverlay } from './ShortcutsOverlay';

export function KeyboardLayer() {
  const ws = useWorkspace();
  const mac = useMac();
  const [open, setOpen] = useState<'palette' | 'shortcuts' | null>(null);
  const { state } = ws;

  useCommand('palette', () => setOpen((o) => (o === 'palette' ? null : 'palette')));
  useCommand('shortcuts', () => setOpen('shortcuts'));
  useCommand('settings', () => ws.showView('settings'));
  // In the open session's project (a temporary one: another temporary one), else the first project.
  useCommand('newSession', () => void ws.newSession(state.selected?.projectId ?? state.projects[0]?.id ?? ''));
  const step = (by: number) => {
    const list = allSessions(state.projects.map((p) => p.id), state.sessions);
    if (list.length === 0) return;
    const at = list.findIndex((s) => s.id === state.selected?.id);
    const next = at < 0 ? (by > 0 ? 0 : list.length - 1) : (at + by + list.length) % list.length;
    ws.select(list[next]!);
  };
  useCommand('nextSession', () => step(1));
  useCommand('previousSession', () => step(-1));

  if (open === 'palette') return <CommandPalette onClose={() => setOpen(null)} />;
  if (open === 'shortcuts') return <ShortcutsOverlay mac={mac} onClose={() => setOpen(null)} />;
  return null;
}
