// Settings → Permissions: the command rules by where they apply — this session's, the
// current project's, the global ones, and those of other projects and sessions — added,
// edited and removed here, and a box to paste a command and see how they decide it.
import { Plus } from 'lucide-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import * as bridge from '../../bridge';
import { toBridgeError } from '../../bridge/errors';
import type { CommandRule } from '../../bridge/rules';
import { queryKeys } from '../../state/queryKeys';
import { useWorkspace } from '../../state/WorkspaceContext';
import { Button } from '../../ui/Button';
import { useConfirm } from '../../ui/Dialog';
import { CommandCheckBox } from './CommandCheckBox';
import { RuleForm, type RuleOwners } from './RuleForm';
import { groupRules, ownerText, ruleString, ruleWords } from './ruleText';
import './permissions.css';
import { ErrorBox } from '../../ui/ErrorBox';

/** "" = the add form; an id = that rule's edit form. */
type Editing = string | null;

export function PermissionsSection() {
  const ws = useWorkspace();
  const current = ws.state.selected;
  const project = ws.state.projects.find((p) => p.id === current?.projectId) ?? null;
  const owners: RuleOwners = {
    sessionId: current?.id ?? '',
    sessionTitle: current?.title ?? '',
    projectId: project?.id ?? '',
    projectName: project?.name ?? '',
  };
  const confirm = useConfirm();
  const client = useQueryClient();
  const q = useQuery({ queryKey: queryKeys.commandRules, queryFn: bridge.listCommandRules, refetchOnMount: 'always' });
  const [editing, setEditing] = useState<Editing>(null);
  const [removeError, setRemoveError] = useState<{ id: string; code: string; message: string } | null>(null);
  const reload = () => void client.invalidateQueries({ queryKey: queryKeys.commandRules });
  const loadError = q.error ? toBridgeError(q.error) : null;
  const groups = q.data ? groupRules(q.data, owners.sessionId, owners.projectId) : null;

  const remove = async (r: CommandRule) => {
    const ok = await confirm({
      title: `Remove the rule ${ruleWords(r)}?`,
      message: <p>{ruleString(r)} no longer applies; the commands it matched follow the other rules and the permission mode.</p>,
      confirmLabel: 'Remove',
      danger: true,
    });
    if (!ok) return;
    setRemoveError(null);
    try {
      await bridge.removeCommandRule(r.id);
      if (editing === r.id) setEditing(null);
    } catch (err) {
      const e = toBridgeError(err);
      setRemoveError({ id: r.id, code: e.code, message: e.message });
    }
    reload();
  };

  const form = (r: CommandRule | null) => (
    <RuleForm
      key={r?.id ?? 'new'}
      rule={r}
      owners={owners}
      onSaved={() => {
        setEditing(null);
        reload();
      }}
      onCancel={() => setEditing(null)}
    />
  );

  const list = (label: string, rules: CommandRule[], empty: string, showOwner = false) => (
    <section className="rule-group" aria-label={label}>
      <h3 className="rule-group-title">{label}</h3>
      {rules.length === 0 ? (
        <p className="muted rule-empty">{empty}</p>
      ) : (
        <ul className="provider-list" aria-label={label}>
          {rules.map((r) => (
            <RuleItem key={r.id} rule={r} showOwner={showOwner} onEdit={() => setEditing(r.id)} onRemove={() => void remove(r)}>
              {removeError?.id === r.id && (
                <p className="field-error" role="alert">
                  {removeError.message} <code className="error-code">{removeError.code}</code>
                </p>
              )}
              {editing === r.id && form(r)}
            </RuleItem>
          ))}
        </ul>
      )}
    </section>
  );

  const rulesOf = current ? 'this session’s (global, its project’s and its own)' : project ? `${project.name}’s and the global` : 'the global';

  return (
    <fieldset className="settings-group">
      <legend>Permissions</legend>
      <p className="field-help">
        Command rules decide the agent’s shell commands without a card. A rule is a program and the first words of its
        arguments; every command in a line (pipelines, lists, <code>$(…)</code>, bodies) must be allowed for the line to run.
        Deny beats ask beats allow, and deny rules apply in every permission mode. <code>eval</code>, <code>sh -c</code>,{' '}
        <code>sudo</code> and the like always ask.
      </p>
      {loadError ? (
        <ErrorBox what="The command rules could not be loaded." error={loadError} onRetry={() => void q.refetch()} />
      ) : !groups ? (
        <p className="muted">Loading the command rules…</p>
      ) : (
        <>
          {current
            ? list(`Session: ${current.title || 'untitled'}`, groups.session, 'No rules for this session alone. A card’s “Always allow … for this session” adds one.')
            : list('Session', [], 'Open a session to see its own rules.')}
          {project
            ? list(`Project: ${project.name}`, groups.project, `No rules for ${project.name}.`)
            : list('Project', [], current ? 'This session has no project.' : 'Open a session of a project to see its rules.')}
          {list('Global', groups.global, 'No global rules.')}
          {groups.elsewhere.length > 0 && list('Other projects and sessions', groups.elsewhere, '', true)}
        </>
      )}
      {editing === '' ? (
        form(null)
      ) : (
        <div className="settings-actions">
          <Button icon={<Plus size={14} aria-hidden="true" />} onClick={() => setEditing('')} disabled={!groups}>
            Add rule
          </Button>
        </div>
      )}
      <CommandCheckBox sessionId={owners.sessionId} projectId={owners.projectId} rulesOf={rulesOf} />
    </fieldset>
  );
}

interface RuleItemProps {
  rule: CommandRule;
  showOwner: boolean;
  onEdit: () => void;
  onRemove: () => void;
  children?: ReactNode;
}

function RuleItem({ rule: r, showOwner, onEdit, onRemove, children }: RuleItemProps) {
  const words = ruleWords(r);
  return (
    <li className="provider-item rule-item" aria-label={ruleString(r)}>
      <div className="provider-summary">
        <strong>
          <span className={`badge rule-badge rule-badge-${r.decision}`}>{r.decision}</span> <code>{words}</code>
        </strong>
        {r.note && <p className="field-help rule-note">{r.note}</p>}
        {showOwner && <div className="provider-meta">{ownerText(r)}</div>}
      </div>
      <div className="provider-actions">
        <Button size="sm" variant="ghost" aria-label={`Edit ${r.decision} ${words}`} onClick={onEdit}>
          Edit
        </Button>
        <Button size="sm" variant="ghost" aria-label={`Remove ${r.decision} ${words}`} onClick={onRemove}>
          Remove
        </Button>
      </div>
      {children}
    </li>
  );
}
