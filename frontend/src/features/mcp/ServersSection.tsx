// Settings → MCP servers: the app's own servers (add, edit, test, enable, remove) and,
// in their own group, the servers of the current session's project, each untrusted one
// with its trust card. Secret values are never shown: a row says only that one is saved.
import { Plus } from 'lucide-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import * as bridge from '../../bridge';
import { toBridgeError } from '../../bridge/errors';
import type { MCPServer, Project } from '../../bridge/types';
import { queryKeys } from '../../state/queryKeys';
import { useWorkspace } from '../../state/WorkspaceContext';
import { Button } from '../../ui/Button';
import { useConfirm } from '../../ui/Dialog';
import { ServerForm } from './ServerForm';
import { ServerItem } from './ServerItem';
import { serverKey } from './labels';
import './mcp.css';
import { ErrorBox } from '../../ui/ErrorBox';

/** "" = the add form; an id = that server's edit form. */
type Editing = string | null;

export function ServersSection() {
  const ws = useWorkspace();
  const selectedProject = ws.state.selected?.projectId ?? '';
  const project = ws.state.projects.find((p) => p.id === selectedProject) ?? null;
  const confirm = useConfirm();
  const client = useQueryClient();
  // Re-read on mcp:changed (features/app/cacheRules) and after every action here. With a
  // project, its list (the same query its group reads) says which app server it overrides.
  const projectQ = useQuery({ queryKey: queryKeys.mcpServers(selectedProject), queryFn: () => bridge.listMCPServers(selectedProject) });
  // A project whose list fails (deleted, unreadable) must not hide the app's own servers.
  const fallBack = selectedProject !== '' && projectQ.isError;
  const appQ = useQuery({ queryKey: queryKeys.mcpServers(''), queryFn: () => bridge.listMCPServers(''), enabled: fallBack });
  const q = fallBack ? appQ : projectQ;
  const [editing, setEditing] = useState<Editing>(null);
  const [removeError, setRemoveError] = useState<{ id: string; code: string; message: string } | null>(null);
  const reload = () => void client.invalidateQueries({ queryKey: queryKeys.mcpAll });
  const loadError = q.error ? toBridgeError(q.error) : null;
  const servers = (q.data ?? []).filter((s) => s.scope === 'user');

  const remove = async (s: MCPServer) => {
    const ok = await confirm({
      title: `Remove ${s.id}?`,
      message: <p>Its process stops, and its saved secrets and sign-in tokens are deleted. Sessions lose its tools.</p>,
      confirmLabel: 'Remove',
      danger: true,
    });
    if (!ok) return;
    setRemoveError(null);
    try {
      await bridge.removeMCPServer(s.id);
      if (editing === s.id) setEditing(null);
    } catch (err) {
      const e = toBridgeError(err);
      setRemoveError({ id: s.id, code: e.code, message: e.message });
    }
    reload();
  };

  const form = (s: MCPServer | null) => (
    <ServerForm
      key={s?.id ?? 'new'}
      server={s}
      onSaved={() => {
        setEditing(null);
        reload();
      }}
      onCancel={() => setEditing(null)}
    />
  );

  return (
    <>
      <Group title="MCP servers">
        <p className="field-help">
          Model Context Protocol servers give the agent more tools (an issue tracker, a database, docs). Their tools load on demand, so
          an unused server costs little context; every call asks for approval unless the session allows it.
        </p>
        {loadError ? (
          <ErrorBox what="The MCP servers could not be loaded." error={loadError} onRetry={() => void q.refetch()} />
        ) : !q.data ? (
          <p className="muted mcp-empty">Loading the MCP servers…</p>
        ) : (
          <>
            {servers.length === 0 && editing === null && <p className="muted mcp-empty">No MCP server yet.</p>}
            {servers.length > 0 && (
              <ul className="provider-list" aria-label="App servers">
                {servers.map((s) => (
                  <ServerItem key={serverKey(s)} server={s} onEdit={() => setEditing(s.id)} onRemove={() => void remove(s)} onChanged={reload}>
                    {removeError?.id === s.id && (
                      <p className="field-error" role="alert">
                        {removeError.message} <code className="error-code">{removeError.code}</code>
                      </p>
                    )}
                    {editing === s.id && form(s)}
                  </ServerItem>
                ))}
              </ul>
            )}
          </>
        )}
        {editing === '' ? (
          form(null)
        ) : (
          <div className="settings-actions">
            <Button icon={<Plus size={14} aria-hidden="true" />} onClick={() => setEditing('')}>
              Add server
            </Button>
          </div>
        )}
      </Group>
      {project && <ProjectServers project={project} onChanged={reload} />}
    </>
  );
}

/** The servers a project's files define (.mcp.json, .agents/servers/*.json). */
function ProjectServers({ project, onChanged }: { project: Project; onChanged: () => void }) {
  const q = useQuery({ queryKey: queryKeys.mcpServers(project.id), queryFn: () => bridge.listMCPServers(project.id) });
  const loadError = q.error ? toBridgeError(q.error) : null;
  const servers = (q.data ?? []).filter((s) => s.scope === 'project');
  // The app server of the same id, if any: overridden once the project's own is trusted.
  const app = (id: string) => (q.data ?? []).find((s) => s.scope === 'user' && s.id === id);
  const title = `MCP servers of ${project.name}`;
  return (
    <Group title={title}>
      <p className="field-help">
        Defined in the project’s <code>.mcp.json</code> and <code>.agents/servers/*.json</code>. In this project’s sessions a project
        server replaces an app server of the same name.
      </p>
      {loadError ? (
        <ErrorBox what="The project’s MCP servers could not be loaded." error={loadError} onRetry={() => void q.refetch()} />
      ) : !q.data ? (
        <p className="muted mcp-empty">Loading the project’s MCP servers…</p>
      ) : servers.length === 0 ? (
        <p className="muted mcp-empty">This project defines no MCP server.</p>
      ) : (
        <ul className="provider-list" aria-label="Project servers">
          {servers.map((s) => {
            const same = s.id === '' ? undefined : app(s.id);
            return (
              <ServerItem key={serverKey(s)} server={s} onChanged={onChanged}>
                {same?.overridden && <p className="field-help mcp-override">In this project’s sessions it replaces the app server {s.id}.</p>}
                {same && !same.overridden && (
                  <p className="field-help mcp-override">Until you trust it, this project’s sessions use the app server {s.id}.</p>
                )}
              </ServerItem>
            );
          })}
        </ul>
      )}
    </Group>
  );
}

function Group({ title, children }: { title: string; children: ReactNode }) {
  return (
    <fieldset className="settings-group">
      <legend>{title}</legend>
      {children}
    </fieldset>
  );
}
