// The add/edit form of one of the app's own subagent definitions. The backend parses what
// is saved with the same rules as a file and refuses anything it would warn about, so its
// errors are shown here as they come (under the name when the name is at fault).
import { useQuery } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import * as bridge from '../../bridge';
import { toBridgeError, type BridgeError } from '../../bridge/errors';
import type { Subagent, SubagentInput, SubagentPermission } from '../../bridge/subagents';
import { queryKeys } from '../../state/queryKeys';
import { Button } from '../../ui/Button';
import { DEFAULT_MAX_TURNS, MAX_MAX_TURNS, PERMISSIONS } from './labels';

type Field = 'name' | 'description' | 'maxTurns' | 'prompt';
const FIELD_ORDER: readonly Field[] = ['name', 'description', 'maxTurns', 'prompt'];

interface Draft {
  name: string;
  description: string;
  /** "*": every working tool. */
  all: boolean;
  inherit: boolean;
  tools: string[];
  model: string;
  permission: SubagentPermission;
  maxTurns: string;
  prompt: string;
}

function toDraft(s: Subagent | null): Draft {
  const written = s?.toolsWritten ?? [];
  return {
    name: s?.name ?? '',
    description: s?.description ?? '',
    all: written.includes('*'),
    inherit: written.some((t) => t.toLowerCase() === 'inherit'),
    tools: written.filter((t) => t !== '*' && t.toLowerCase() !== 'inherit'),
    model: s?.model === 'inherit' ? '' : (s?.model ?? ''),
    permission: (PERMISSIONS.find((p) => p.value === s?.permission)?.value ?? 'inherit'),
    maxTurns: s && s.maxTurns !== DEFAULT_MAX_TURNS ? String(s.maxTurns) : '',
    prompt: s?.prompt ?? '',
  };
}

export interface SubagentFormProps {
  /** null adds a definition. */
  subagent: Subagent | null;
  /** The tools a definition may name one by one (from the list). */
  workingTools: string[];
  onSaved: (s: Subagent) => void;
  onCancel: () => void;
}

export function SubagentForm({ subagent, workingTools, onSaved, onCancel }: SubagentFormProps) {
  const [draft, setDraft] = useState<Draft>(() => toDraft(subagent));
  const [fieldErrors, setFieldErrors] = useState<Partial<Record<Field, string>>>({});
  const [error, setError] = useState<BridgeError | null>(null);
  const [saving, setSaving] = useState(false);
  const providers = useQuery({ queryKey: queryKeys.providers, queryFn: bridge.listProviders });
  const id = useId();
  const ids = (k: string) => `${id}-${k}`;

  const edit = (patch: Partial<Draft>) => {
    setDraft((d) => ({ ...d, ...patch }));
    setFieldErrors((f) => {
      const next = { ...f };
      for (const k of Object.keys(patch)) delete next[k as Field];
      return next;
    });
    setError(null);
  };

  const input = (): SubagentInput | null => {
    const errs: Partial<Record<Field, string>> = {};
    const name = draft.name.trim();
    if (name === '') errs.name = 'Enter a name: the agent delegates to it by this name.';
    else if (!/^[a-z0-9][a-z0-9-]*$/.test(name) || name.length > 64) errs.name = 'Use lowercase letters, digits and - (at most 64).';
    if (draft.description.trim() === '') errs.description = 'Say when the agent should use this subagent: the agent reads it to choose.';
    const turns = draft.maxTurns.trim();
    const maxTurns = turns === '' ? 0 : /^\d+$/.test(turns) ? Number(turns) : NaN;
    if (turns !== '' && !(maxTurns >= 1 && maxTurns <= MAX_MAX_TURNS)) errs.maxTurns = `Enter a whole number from 1 to ${MAX_MAX_TURNS}, or leave it empty for ${DEFAULT_MAX_TURNS}.`;
    if (draft.prompt.trim() === '') errs.prompt = 'Write the instructions the subagent works by.';
    setFieldErrors(errs);
    const first = FIELD_ORDER.find((f) => errs[f]);
    if (first) {
      focusField(first);
      return null;
    }
    const named = draft.all ? ['*'] : workingTools.filter((t) => draft.tools.includes(t));
    return {
      replaces: subagent?.name ?? '',
      name,
      description: draft.description.trim(),
      tools: draft.inherit ? ['inherit', ...named] : named,
      model: draft.model,
      permission: draft.permission,
      maxTurns,
      prompt: draft.prompt,
    };
  };

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    const next = input();
    if (!next) return;
    setSaving(true);
    setError(null);
    try {
      onSaved(await bridge.saveSubagent(next));
    } catch (err) {
      const be = toBridgeError(err);
      if (be.field === 'name') {
        setFieldErrors({ name: be.message });
        focusField('name');
      } else setError(be);
    } finally {
      setSaving(false);
    }
  };

  // The Save button is at the form's foot: an error further up is brought into view.
  const focusField = (f: Field) => document.getElementById(ids(f))?.focus();

  const toggleTool = (tool: string, on: boolean) => edit({ tools: on ? [...draft.tools, tool] : draft.tools.filter((t) => t !== tool) });
  const profiles = providers.data?.providers ?? [];
  // A model written by hand (an alias, a name) stays selectable as written.
  const writtenModel = draft.model !== '' && !profiles.some((p) => p.id === draft.model) ? draft.model : null;
  const title = subagent ? `Edit ${subagent.name}` : 'Add a subagent';
  const described = (f: Field, help?: string) => ({
    'aria-invalid': Boolean(fieldErrors[f]) || undefined,
    'aria-describedby': [help, fieldErrors[f] && ids(`${f}-err`)].filter(Boolean).join(' ') || undefined,
  });

  return (
    <form className="settings-form provider-form subagent-form" aria-label={title} onSubmit={(e) => void onSubmit(e)} noValidate>
      <h3 className="provider-form-title">{title}</h3>
      <div className="field">
        <label className="field-label" htmlFor={ids('name')}>Name</label>
        <p id={ids('name-help')} className="field-help">Lowercase letters, digits and -. The same name as a builtin replaces it.</p>
        <input id={ids('name')} className="input" value={draft.name} placeholder="e.g. reviewer" spellCheck={false} onChange={(e) => edit({ name: e.target.value })} {...described('name', ids('name-help'))} />
        <FieldError id={ids('name-err')} error={fieldErrors.name} />
      </div>
      <div className="field">
        <label className="field-label" htmlFor={ids('description')}>Description</label>
        <p id={ids('description-help')} className="field-help">When the agent should delegate to it; the agent reads this to choose.</p>
        <textarea id={ids('description')} className="input subagent-wide" rows={2} value={draft.description} onChange={(e) => edit({ description: e.target.value })} {...described('description', ids('description-help'))} />
        <FieldError id={ids('description-err')} error={fieldErrors.description} />
      </div>
      <div className="field" role="group" aria-labelledby={ids('tools-label')}>
        <div id={ids('tools-label')} className="field-label">Tools</div>
        <p className="field-help">With none checked it can Read, Glob and Grep only. It never gets a tool because the session has it, unless it takes the session’s tools.</p>
        <label className="checkbox-label">
          <input type="checkbox" checked={draft.inherit} onChange={(e) => edit({ inherit: e.target.checked })} />
          The session’s tools, MCP tools included (never Task or the mode switches)
        </label>
        <label className="checkbox-label">
          <input type="checkbox" checked={draft.all} onChange={(e) => edit({ all: e.target.checked })} />
          Every working tool ({workingTools.join(', ')})
        </label>
        {!draft.all && (
          <div className="subagent-tool-boxes">
            {workingTools.map((t) => (
              <label key={t} className="checkbox-label">
                <input type="checkbox" checked={draft.tools.includes(t)} onChange={(e) => toggleTool(t, e.target.checked)} />
                {t}
              </label>
            ))}
          </div>
        )}
      </div>
      <div className="field">
        <label className="field-label" htmlFor={ids('model')}>Model</label>
        <select id={ids('model')} className="select" value={draft.model} onChange={(e) => edit({ model: e.target.value })}>
          <option value="">The session’s model</option>
          {writtenModel && <option value={writtenModel}>{writtenModel} (as written)</option>}
          {profiles.map((p) => (
            <option key={p.id} value={p.id}>
              {p.name || p.model} ({p.model})
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label className="field-label" htmlFor={ids('permission')}>Permission</label>
        <select id={ids('permission')} className="select" value={draft.permission} aria-describedby={ids('permission-help')} onChange={(e) => edit({ permission: e.target.value as SubagentPermission })}>
          {PERMISSIONS.map((p) => (
            <option key={p.value} value={p.value}>
              {p.label}
            </option>
          ))}
        </select>
        <p id={ids('permission-help')} className="field-help">
          {PERMISSIONS.find((p) => p.value === draft.permission)?.help} Plan and Goal modes and the outside-path check always apply.
        </p>
      </div>
      <div className="field">
        <label className="field-label" htmlFor={ids('maxTurns')}>Max turns</label>
        <input id={ids('maxTurns')} className="input input-number" inputMode="numeric" value={draft.maxTurns} placeholder={`${DEFAULT_MAX_TURNS}`} onChange={(e) => edit({ maxTurns: e.target.value })} {...described('maxTurns')} />
        <FieldError id={ids('maxTurns-err')} error={fieldErrors.maxTurns} />
      </div>
      <div className="field">
        <label className="field-label" htmlFor={ids('prompt')}>Instructions</label>
        <p id={ids('prompt-help')} className="field-help">The subagent’s system prompt. Its final message is the report the agent gets back.</p>
        <textarea id={ids('prompt')} className="input subagent-wide subagent-prompt" rows={8} value={draft.prompt} onChange={(e) => edit({ prompt: e.target.value })} {...described('prompt', ids('prompt-help'))} />
        <FieldError id={ids('prompt-err')} error={fieldErrors.prompt} />
      </div>
      <div className="settings-actions">
        {error && (
          <p className="field-error" role="alert">
            {error.message} <span className="error-code">{error.code}</span>
          </p>
        )}
        <Button variant="ghost" onClick={onCancel} disabled={saving}>
          Cancel
        </Button>
        <Button type="submit" variant="primary" disabled={saving}>
          {subagent ? 'Save subagent' : 'Add subagent'}
        </Button>
      </div>
    </form>
  );
}

function FieldError({ id, error }: { id: string; error: string | undefined }) {
  return error ? (
    <p id={id} className="field-error" role="alert">
      {error}
    </p>
  ) : null;
}
