// The composer's MCP picker: choose ready servers (and, optionally, some of their tools)
// whose tools the next prompt gets loaded without a ToolSearch round trip. The choice
// shows as chips and goes with that one prompt (SendPromptWith), then clears.
import { Plug, X } from 'lucide-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import * as bridge from '../../bridge';
import type { MCPSelection, MCPServer } from '../../bridge/types';
import { queryKeys } from '../../state/queryKeys';
import { formatTokens, serverKey } from '../mcp/labels';
import '../mcp/mcp.css';

export interface MCPPickerProps {
  /** The session's project ("" for a temporary session: the app's servers only). */
  projectId: string;
  selection: MCPSelection[];
  onChange: (next: MCPSelection[]) => void;
  /** Opens Settings (offered when no server is ready). */
  onOpenSettings?: () => void;
  /** Each change opens the picker (the composer's /mcp); 0 leaves it closed. */
  openSignal?: number;
}

/**
 * A server the picker offers: trusted, ready, with at least one enabled tool, and the one
 * the session uses (not an app server the project's own of its id overrides).
 */
function offered(s: MCPServer): boolean {
  return s.trusted && !s.overridden && s.state === 'ready' && s.enabled && s.tools.some((t) => t.enabled);
}

/** "everything", or "everything: echo, add" when some tools were chosen. */
export function selectionLabel(sel: MCPSelection): string {
  return sel.tools.length === 0 ? sel.serverId : `${sel.serverId}: ${sel.tools.join(', ')}`;
}

export function MCPPicker({ projectId, selection, onChange, onOpenSettings, openSignal = 0 }: MCPPickerProps) {
  // Re-read on mcp:changed (features/app/cacheRules).
  const q = useQuery({ queryKey: queryKeys.mcpServers(projectId), queryFn: () => bridge.listMCPServers(projectId) });
  const [open, setOpen] = useState(false);
  const trigger = useRef<HTMLButtonElement>(null);
  const popover = useRef<HTMLDivElement>(null);
  const popoverId = useId();
  useEffect(() => {
    if (openSignal > 0) setOpen(true);
  }, [openSignal]);

  useEffect(() => {
    if (!open) return;
    popover.current?.querySelector<HTMLElement>('input, button')?.focus();
    const onPointer = (e: Event) => {
      const t = e.target as Node;
      if (!popover.current?.contains(t) && !trigger.current?.contains(t)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointer, true);
    return () => document.removeEventListener('pointerdown', onPointer, true);
  }, [open]);

  const servers = q.data ?? [];
  // Nothing configured (or MCP unavailable, which Settings explains): no picker at all.
  if (servers.length === 0 && selection.length === 0) return null;
  const ready = servers.filter(offered);

  const chosen = (id: string) => selection.find((s) => s.serverId === id);
  const toggleServer = (id: string, on: boolean) =>
    onChange(on ? [...selection, { serverId: id, tools: [] }] : selection.filter((s) => s.serverId !== id));
  const toggleTool = (id: string, tool: string, on: boolean) =>
    onChange(
      selection.map((s) => {
        if (s.serverId !== id) return s;
        const tools = on ? [...s.tools, tool] : s.tools.filter((t) => t !== tool);
        return { ...s, tools };
      }),
    );

  const onKeyDown = (e: KeyboardEvent) => {
    // Enter on a checkbox would submit the composer's form: it toggles the box instead.
    if (e.key === 'Enter' && e.target instanceof HTMLInputElement && e.target.type === 'checkbox') {
      e.preventDefault();
      e.target.click();
      return;
    }
    if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      setOpen(false);
      trigger.current?.focus();
    }
  };

  return (
    <>
      <button
        ref={trigger}
        type="button"
        className="chip chip-mcp"
        aria-haspopup="dialog"
        aria-expanded={open}
        aria-controls={open ? popoverId : undefined}
        title="Give this prompt the tools of MCP servers"
        onClick={() => setOpen((x) => !x)}
      >
        <Plug size={13} aria-hidden="true" />
        <span>MCP</span>
      </button>
      {selection.map((sel) => (
        <span key={sel.serverId} className="chip chip-mcp-selected">
          <span>{selectionLabel(sel)}</span>
          <button type="button" className="chip-remove" aria-label={`Remove ${sel.serverId} from this prompt`} onClick={() => toggleServer(sel.serverId, false)}>
            <X size={11} aria-hidden="true" />
          </button>
        </span>
      ))}
      {open && (
        <div ref={popover} id={popoverId} role="dialog" aria-label="MCP servers for this prompt" className="mcp-picker" onKeyDown={onKeyDown}>
          {ready.length === 0 ? (
            <div className="mcp-picker-empty">
              <p className="muted">No MCP server is ready.</p>
              {onOpenSettings && (
                <button type="button" className="btn btn-secondary btn-sm" onClick={onOpenSettings}>
                  Open MCP settings
                </button>
              )}
            </div>
          ) : (
            <>
              <p className="field-help">Their tools are loaded for the next prompt. Choose tools to load only those.</p>
              <ul className="mcp-picker-list">
                {ready.map((s) => {
                  const sel = chosen(s.id);
                  return (
                    <li key={serverKey(s)}>
                      <label className="checkbox-label">
                        <input type="checkbox" checked={sel !== undefined} onChange={(e) => toggleServer(s.id, e.target.checked)} />
                        <strong>{s.id}</strong>
                        <span className="muted">{formatTokens(s.schemaTokens)}</span>
                      </label>
                      {sel && (
                        <ul className="mcp-picker-tools" aria-label={`Tools of ${s.id}`}>
                          {s.tools
                            .filter((t) => t.enabled)
                            .map((t) => (
                              <li key={t.name}>
                                <label className="checkbox-label">
                                  <input type="checkbox" checked={sel.tools.includes(t.name)} onChange={(e) => toggleTool(s.id, t.name, e.target.checked)} />
                                  <code>{t.name}</code>
                                  {t.title && t.title !== t.name && <span className="muted">{t.title}</span>}
                                </label>
                              </li>
                            ))}
                        </ul>
                      )}
                    </li>
                  );
                })}
              </ul>
            </>
          )}
        </div>
      )}
    </>
  );
}
