// Global commands: features register what a command does where they can do it (the
// open session registers Stop and the pane toggles), and one window key handler runs
// them by the shortcut table. The palette lists the commands registered now.
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import type { MenuKeys } from '../../ui/Menu';
import { ariaShortcut, formatShortcut, matchShortcut, shortcutFor, typingTarget, type CommandId } from './shortcuts';

interface Registration {
  run: () => void;
}

export interface CommandsApi {
  mac: boolean;
  /** Runs a registered command; false when none is registered now. */
  run: (id: CommandId) => boolean;
  /** The commands that can run now. */
  available: ReadonlySet<CommandId>;
  register: (id: CommandId, reg: Registration) => () => void;
}

// Two contexts: registering must not depend on what is available, or every
// registration would re-run every registering effect.
const ControlContext = createContext<Pick<CommandsApi, 'mac' | 'run' | 'register'> | null>(null);
const AvailableContext = createContext<ReadonlySet<CommandId>>(new Set());

export function CommandsProvider({ mac, children }: { mac: boolean; children: ReactNode }) {
  // The newest registration of an id wins (a stack, so unmounting restores the one before).
  const regs = useRef(new Map<CommandId, Registration[]>());
  const [available, setAvailable] = useState<ReadonlySet<CommandId>>(() => new Set());
  const sync = useCallback(() => {
    setAvailable(new Set([...regs.current.entries()].filter(([, list]) => list.length > 0).map(([id]) => id)));
  }, []);
  const register = useCallback(
    (id: CommandId, reg: Registration) => {
      const list = regs.current.get(id) ?? [];
      regs.current.set(id, [...list, reg]);
      sync();
      return () => {
        regs.current.set(id, (regs.current.get(id) ?? []).filter((r) => r !== reg));
        sync();
      };
    },
    [sync],
  );
  const run = useCallback((id: CommandId) => {
    const list = regs.current.get(id);
    const reg = list?.[list.length - 1];
    if (!reg) return false;
    reg.run();
    return true;
  }, []);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.isComposing) return;
      const id = matchShortcut(e, mac);
      if (id === null) return;
      // A `?` typed into a field is text; a modal dialog (the palette too) owns the keys.
      if (id === 'shortcuts' && typingTarget(e.target)) return;
      if (document.querySelector('[aria-modal="true"]')) return;
      if (run(id)) e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [mac, run]);

  const control = useMemo(() => ({ mac, run, register }), [mac, run, register]);
  return (
    <ControlContext.Provider value={control}>
      <AvailableContext.Provider value={available}>{children}</AvailableContext.Provider>
    </ControlContext.Provider>
  );
}

export function useCommands(): CommandsApi {
  const ctx = useContext(ControlContext);
  const available = useContext(AvailableContext);
  if (!ctx) throw new Error('useCommands outside CommandsProvider');
  return { ...ctx, available };
}

/** Whether the platform is macOS, for printing shortcuts; false outside the provider. */
export function useMac(): boolean {
  return useContext(ControlContext)?.mac ?? false;
}

/** Makes id run `run` while the caller is mounted and run is given. */
export function useCommand(id: CommandId, run: (() => void) | undefined | false) {
  const ctx = useContext(ControlContext);
  const latest = useRef(run);
  latest.current = run;
  const on = Boolean(run);
  useEffect(() => {
    if (!ctx || !on) return;
    return ctx.register(id, { run: () => latest.current && latest.current() });
  }, [ctx, id, on]);
}

/** A control's tooltip and aria-keyshortcuts for a command: "Settings (Ctrl+,)". */
export function useShortcutHint(id: CommandId, label: string): { title: string; 'aria-keyshortcuts': string } {
  const mac = useMac();
  const s = shortcutFor(id);
  return { title: `${label} (${formatShortcut(s, mac)})`, 'aria-keyshortcuts': ariaShortcut(s, mac) };
}

/** A menu item's keys for a command, printed as the platform prints them. */
export function useMenuKeys(): (id: CommandId) => MenuKeys {
  const mac = useMac();
  return useCallback(
    (id: CommandId) => {
      const s = shortcutFor(id);
      return { label: formatShortcut(s, mac), aria: ariaShortcut(s, mac) };
    },
    [mac],
  );
}
