// The add/edit form of one command rule. The backend validates as `pi-desktop rules add`
// does; its RULE_INVALID errors land under the field they name, the rest above the buttons.
import { useId, useState, type FormEvent } from 'react';
import * as bridge from '../../bridge';
import { toBridgeError, type BridgeError } from '../../bridge/errors';
import type { CommandRule, CommandRuleInput, RuleDecision, RuleScope } from '../../bridge/rules';
import { Button } from '../../ui/Button';
import { DECISIONS, ruleWords, splitWords } from './ruleText';

type Field = 'decision' | 'words' | 'scope' | 'note';

/** The form field a RULE_INVALID error's details.field belongs to. */
const FIELD_OF: Record<string, Field> = { decision: 'decision', program: 'words', args: 'words', scope: 'scope', note: 'note' };

/** Where a new or edited rule can apply: the session and project in view, or everywhere. */
export interface RuleOwners {
  sessionId: string;
  sessionTitle: string;
  projectId: string;
  projectName: string;
}

export interface RuleFormProps {
  /** null adds a rule. */
  rule: CommandRule | null;
  owners: RuleOwners;
  onSaved: (r: CommandRule) => void;
  onCancel: () => void;
}

interface ScopeChoice {
  scope: RuleScope;
  label: string;
  projectId: string;
  sessionId: string;
}

/** The scopes on offer: an edited rule keeps its own project or session. */
function scopeChoices(rule: CommandRule | null, o: RuleOwners): ScopeChoice[] {
  const out: ScopeChoice[] = [];
  const sessionId = rule?.scope === 'session' ? rule.sessionId : o.sessionId;
  const sessionTitle = rule?.scope === 'session' ? rule.sessionTitle || rule.sessionId : o.sessionTitle;
  const projectId = rule?.scope === 'project' ? rule.projectId : o.projectId;
  const projectName = rule?.scope === 'project' ? rule.projectName || rule.projectId : o.projectName;
  if (sessionId) out.push({ scope: 'session', label: `This session only (${sessionTitle || 'untitled'})`, projectId: '', sessionId });
  if (projectId) out.push({ scope: 'project', label: `Project ${projectName}`, projectId, sessionId: '' });
  out.push({ scope: 'global', label: 'Global: every project and session', projectId: '', sessionId: '' });
  return out;
}

export function RuleForm({ rule, owners, onSaved, onCancel }: RuleFormProps) {
  const choices = scopeChoices(rule, owners);
  const [decision, setDecision] = useState<RuleDecision>(rule?.decision ?? 'allow');
  const [words, setWords] = useState(rule ? ruleWords(rule) : '');
  const [scope, setScope] = useState<RuleScope>(rule?.scope ?? choices[0]?.scope ?? 'global');
  const [note, setNote] = useState(rule?.note ?? '');
  const [fieldErrors, setFieldErrors] = useState<Partial<Record<Field, string>>>({});
  const [error, setError] = useState<BridgeError | null>(null);
  const [saving, setSaving] = useState(false);
  const id = useId();
  const ids = (k: string) => `${id}-${k}`;

  const touched = (f: Field) => {
    setFieldErrors((e) => ({ ...e, [f]: undefined }));
    setError(null);
  };
  const focusField = (f: Field) => document.getElementById(ids(f))?.focus();

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    const [program = '', ...args] = splitWords(words);
    if (program === '') {
      setFieldErrors({ words: 'Enter the program and the first words of its arguments, e.g. git status.' });
      focusField('words');
      return;
    }
    const choice = choices.find((c) => c.scope === scope) ?? choices[choices.length - 1];
    const input: CommandRuleInput = { decision, program, args, scope: choice.scope, projectId: choice.projectId, sessionId: choice.sessionId, note };
    setSaving(true);
    setFieldErrors({});
    setError(null);
    try {
      onSaved(rule ? await bridge.updateCommandRule(rule.id, input) : await bridge.addCommandRule(input));
    } catch (err) {
      const be = toBridgeError(err);
      const field = be.code === 'RULE_INVALID' && be.field ? FIELD_OF[be.field] : undefined;
      if (field) {
        setFieldErrors({ [field]: be.message });
        focusField(field);
      } else setError(be);
    } finally {
      setSaving(false);
    }
  };

  const described = (f: Field, help?: string) => ({
    'aria-invalid': Boolean(fieldErrors[f]) || undefined,
    'aria-describedby': [help, fieldErrors[f] && ids(`${f}-err`)].filter(Boolean).join(' ') || undefined,
  });
  const title = rule ? `Edit rule ${ruleWords(rule)}` : 'Add a rule';

  return (
    <form className="settings-form provider-form rule-form" aria-label={title} onSubmit={(e) => void onSubmit(e)} noValidate>
      <h3 className="provider-form-title">{title}</h3>
      <div className="field">
        <label className="field-label" htmlFor={ids('decision')}>Decision</label>
        <select id={ids('decision')} className="select" value={decision} onChange={(e) => { setDecision(e.target.value as RuleDecision); touched('decision'); }} {...described('decision', ids('decision-help'))}>
          {DECISIONS.map((d) => (
            <option key={d.value} value={d.value}>
              {d.label}
            </option>
          ))}
        </select>
        <p id={ids('decision-help')} className="field-help">{DECISIONS.find((d) => d.value === decision)?.help}.</p>
        <FieldError id={ids('decision-err')} error={fieldErrors.decision} />
      </div>
      <div className="field">
        <label className="field-label" htmlFor={ids('words')}>Command</label>
        <p id={ids('words-help')} className="field-help">
          The program and the first words of its arguments, separated by spaces, without quotes: <code>git status</code> matches{' '}
          <code>git status -s</code>, never <code>git status &amp;&amp; rm x</code>.
        </p>
        <input id={ids('words')} className="input rule-words" value={words} placeholder="e.g. git status" spellCheck={false} autoComplete="off" onChange={(e) => { setWords(e.target.value); touched('words'); }} {...described('words', ids('words-help'))} />
        <FieldError id={ids('words-err')} error={fieldErrors.words} />
      </div>
      <div className="field">
        <label className="field-label" htmlFor={ids('scope')}>Applies to</label>
        <select id={ids('scope')} className="select" value={scope} onChange={(e) => { setScope(e.target.value as RuleScope); touched('scope'); }} {...described('scope')}>
          {choices.map((c) => (
            <option key={c.scope} value={c.scope}>
              {c.label}
            </option>
          ))}
        </select>
        <FieldError id={ids('scope-err')} error={fieldErrors.scope} />
      </div>
      <div className="field">
        <label className="field-label" htmlFor={ids('note')}>Note</label>
        <input id={ids('note')} className="input" value={note} placeholder="optional: why this rule" onChange={(e) => { setNote(e.target.value); touched('note'); }} {...described('note')} />
        <FieldError id={ids('note-err')} error={fieldErrors.note} />
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
          {rule ? 'Save rule' : 'Add rule'}
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
