// Settings → Subagents: every definition the current session's project sees — builtin,
// yours, the project's — with its source, tools, permission, model and warnings; the ones
// another replaced, the ones over the limit and the files that cannot be used are listed
// too, with why. Only your own (the app's) are added, edited and deleted here.
import { Plus } from 'lucide-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import * as bridge from '../../bridge';
import { toBridgeError } from '../../bridge/errors';
import type { Subagent } from '../../bridge/subagents';
import { queryKeys } from '../../state/queryKeys';
import { useWorkspace } from '../../state/WorkspaceContext';
import { Button } from '../../ui/Button';
import { useConfirm } from '../../ui/Dialog';
import { SOURCE_LABEL, STATE_LABEL, modelText, permissionText, toolsText } from './labels';
import { SubagentForm } from './SubagentForm';
import './subagents.css';
import { ErrorBox } from '../../ui/ErrorBox';

/** "" = the add form; "<source>:<path>" = that row's edit form. */
type Editing = string | null;

const rowKey = (s: Subagent) => `${s.source}:${s.path}`;

export function SubagentsSection() {
  const ws = useWorkspace();
  const projectId = ws.state.selected?.projectId ?? '';
  const project = ws.state.projects.find((p) => p.id === projectId) ?? null;
  const confirm = useConfirm();
  const client = useQueryClient();
  const q = useQuery({ queryKey: queryKeys.subagents(projectId), queryFn: () => bridge.listSubagents(projectId) });
  const [editing, setEditing] = useState<Editing>(null);
  const [deleteError, setDeleteError] = useState<{ key: string; code: string; message: string } | null>(null);
  const reload = () => void client.invalidateQueries({ queryKey: queryKeys.subagentsAll });
  const loadError = q.error ? toBridgeError(q.error) : null;
  const list = q.data;
  const inEffect = list?.subagents.filter((s) => s.state === 'effective').length ?? 0;

  const remove = async (s: Subagent) => {
    const ok = await confirm({
      title: `Delete ${s.name}?`,
      message: <p>Its file {s.path} is deleted. A builtin or other definition of the same name takes its place.</p>,
      confirmLabel: 'Delete',
      danger: true,
    });
    if (!ok) return;
    setDeleteError(null);
    try {
      await bridge.deleteSubagent(s.name);
      if (editing === rowKey(s)) setEditing(null);
    } catch (err) {
      const e = toBridgeError(err);
      setDeleteError({ key: rowKey(s), code: e.code, message: e.message });
    }
    reload();
  };

  const form = (s: Subagent | null) => (
    <SubagentForm
      key={s ? rowKey(s) : 'new'}
      subagent={s}
      workingTools={list?.workingTools ?? []}
      onSaved={() => {
        setEditing(null);
        reload();
      }}
      onCancel={() => setEditing(null)}
    />
  );

  return (
    <fieldset className="settings-group">
      <legend>Subagents</legend>
      <p className="field-help subagents-help">
        Scoped agents the agent can delegate work to, each with its own tools, model and instructions. Yours are saved in{' '}
        <code>{list?.userDir ?? 'the data folder'}</code> (also read: <code>~/.agents/subagents</code>)
        {project ? (
          <>
            ; {project.name}’s come from its <code>.claude/agents</code> and <code>.agents/subagents</code> folders and are edited there
          </>
        ) : (
          <>; a project’s come from its <code>.claude/agents</code> and <code>.agents/subagents</code> folders (open one of its sessions to see them)</>
        )}
        . A later source replaces an earlier definition of the same name.
      </p>
      {loadError ? (
        <ErrorBox what="The subagents could not be loaded." error={loadError} onRetry={() => void q.refetch()} />
      ) : !list ? (
        <p className="muted subagents-empty">Loading the subagents…</p>
      ) : (
        <>
          <p className="field-help">
            {inEffect} of at most {list.limit} in effect.
          </p>
          <ul className="provider-list" aria-label="Subagents">
            {list.subagents.map((s) => (
              <SubagentItem key={rowKey(s)} subagent={s} onEdit={() => setEditing(rowKey(s))} onDelete={() => void remove(s)}>
                {deleteError?.key === rowKey(s) && (
                  <p className="field-error" role="alert">
                    {deleteError.message} <code className="error-code">{deleteError.code}</code>
                  </p>
                )}
                {editing === rowKey(s) && form(s)}
              </SubagentItem>
            ))}
          </ul>
        </>
      )}
      {editing === '' ? (
        form(null)
      ) : (
        <div className="settings-actions">
          <Button icon={<Plus size={14} aria-hidden="true" />} onClick={() => setEditing('')} disabled={!list}>
            Add subagent
          </Button>
        </div>
      )}
    </fieldset>
  );
}

interface SubagentItemProps {
  subagent: Subagent;
  onEdit: () => void;
  onDelete: () => void;
  children?: ReactNode;
}

function SubagentItem({ subagent: s, onEdit, onDelete, children }: SubagentItemProps) {
  const broken = s.state === 'error';
  const label = s.name || s.path;
  return (
    <li className={`provider-item subagent subagent-${s.state}`} aria-label={`${label} (${SOURCE_LABEL[s.source]})`}>
      <div className="provider-summary">
        <strong>
          {label}
          <span className={`badge subagent-source subagent-source-${s.source}`}>{SOURCE_LABEL[s.source]}</span>
          {s.state !== 'effective' && <span className={`badge subagent-state subagent-state-${s.state}`}>{STATE_LABEL[s.state]}</span>}
        </strong>
        {broken ? (
          <p className="field-error subagent-error">Cannot be used: {s.error}</p>
        ) : (
          <>
            <p className="subagent-description">{s.description}</p>
            <dl className="subagent-facts">
              <dt>Tools</dt>
              <dd>{toolsText(s)}</dd>
              <dt>Permission</dt>
              <dd>{permissionText(s.permission)}</dd>
              <dt>Model</dt>
              <dd>{modelText(s)}</dd>
              <dt>Max turns</dt>
              <dd>{s.maxTurns}</dd>
            </dl>
          </>
        )}
        <div className="provider-meta">
          {s.source === 'builtin' ? 'Shipped with the app' : <code className="selectable">{s.path}</code>}
          {s.source !== 'builtin' && !s.editable && ' · edit it in its file'}
        </div>
        {s.overrides && <p className="field-help">Replaces {s.overrides.startsWith('builtin:') ? `the builtin ${s.name}` : s.overrides}.</p>}
        {s.overriddenBy && <p className="field-help">Replaced by {s.overriddenBy}.</p>}
        {s.warnings.length > 0 && (
          <ul className="subagent-warnings" aria-label={`Warnings of ${label}`}>
            {s.warnings.map((w, i) => (
              <li key={i}>{w}</li>
            ))}
          </ul>
        )}
      </div>
      {s.editable && (
        <div className="provider-actions">
          {!broken && (
            <Button size="sm" variant="ghost" aria-label={`Edit ${s.name}`} onClick={onEdit}>
              Edit
            </Button>
          )}
          <Button size="sm" variant="ghost" aria-label={`Delete ${s.name}`} onClick={onDelete}>
            Delete
          </Button>
        </div>
      )}
      {children}
    </li>
  );
}
