// Paste a command, see how the rules decide it and why: every simple command the shell
// parser finds, on its own line, with its decision, the wrappers looked through, the rules
// it matched and the reason, then the files it would write. Nothing runs.
import { useId, useState, type FormEvent, type KeyboardEvent } from 'react';
import * as bridge from '../../bridge';
import { toBridgeError, type BridgeError } from '../../bridge/errors';
import type { CommandCheck, RuleShell } from '../../bridge/rules';
import { Button } from '../../ui/Button';
import { ruleString } from './ruleText';

const SHELLS: ReadonlyArray<{ value: RuleShell | ''; label: string }> = [
  { value: '', label: 'The default command shell' },
  { value: 'posix', label: 'POSIX (bash, zsh, sh)' },
  { value: 'powershell', label: 'PowerShell' },
  { value: 'cmd', label: 'cmd' },
];

export interface CommandCheckBoxProps {
  sessionId: string;
  projectId: string;
  /** Whose rules decide: "this session's", "project alpha's", "the global". */
  rulesOf: string;
}

export function CommandCheckBox({ sessionId, projectId, rulesOf }: CommandCheckBoxProps) {
  const [command, setCommand] = useState('');
  const [shell, setShell] = useState<RuleShell | ''>('');
  const [result, setResult] = useState<CommandCheck | null>(null);
  const [error, setError] = useState<BridgeError | null>(null);
  const [checking, setChecking] = useState(false);
  const [empty, setEmpty] = useState(false);
  const id = useId();

  const check = async () => {
    if (command.trim() === '') {
      setResult(null);
      setError(null);
      setEmpty(true);
      return;
    }
    setChecking(true);
    setError(null);
    try {
      setResult(await bridge.checkCommand({ sessionId, projectId, command, shell }));
    } catch (err) {
      setResult(null);
      setError(toBridgeError(err));
    } finally {
      setChecking(false);
    }
  };
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    void check();
  };
  // Enter makes a new line (a script may have several); Ctrl/Cmd+Enter checks.
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      void check();
    }
  };

  return (
    <form className="rule-check" aria-label="Check a command" onSubmit={onSubmit} noValidate>
      <div className="field">
        <label className="field-label" htmlFor={`${id}-command`}>Command to check</label>
        <p id={`${id}-help`} className="field-help">
          Decided with {rulesOf} rules, as the agent’s Bash call would be; nothing runs. Ctrl+Enter checks.
        </p>
        <textarea
          id={`${id}-command`}
          className="input rule-check-command"
          rows={3}
          spellCheck={false}
          value={command}
          placeholder="e.g. git status && npm test > out.log"
          aria-describedby={[`${id}-help`, empty ? `${id}-empty` : ''].filter(Boolean).join(' ')}
          aria-invalid={empty || undefined}
          onChange={(e) => {
            setCommand(e.target.value);
            setEmpty(false);
          }}
          onKeyDown={onKeyDown}
        />
        {empty && (
          <p id={`${id}-empty`} className="field-error" role="alert">
            Paste a command to check.
          </p>
        )}
      </div>
      <div className="field rule-check-shell">
        <label className="field-label" htmlFor={`${id}-shell`}>Shell</label>
        <select id={`${id}-shell`} className="select" value={shell} onChange={(e) => setShell(e.target.value as RuleShell | '')}>
          {SHELLS.map((s) => (
            <option key={s.value} value={s.value}>
              {s.label}
            </option>
          ))}
        </select>
      </div>
      <div className="settings-actions">
        <Button type="submit" disabled={checking}>
          {checking ? 'Checking…' : 'Check'}
        </Button>
      </div>
      <div aria-live="polite">
        {error && (
          <p className="field-error" role="alert">
            {error.message} <span className="error-code">{error.code}</span>
          </p>
        )}
        {result && <CheckResult result={result} />}
      </div>
    </form>
  );
}

function CheckResult({ result }: { result: CommandCheck }) {
  return (
    <section className={`rule-check-result rule-decision-${result.decision}`} aria-label="Decision">
      <p className="rule-check-verdict">
        <span className={`badge rule-badge rule-badge-${result.decision}`}>{result.label}</span> {result.reason}
      </p>
      {result.parseError && <p className="field-help">The shell parser stopped at: {result.parseError}</p>}
      <ol className="rule-check-commands" aria-label="Commands found">
        {result.commands.map((c, i) => (
          <li key={i} className={`rule-check-command-row rule-decision-${c.decision}`} aria-label={`${c.text}: ${c.label}`}>
            <div>
              <span className={`badge rule-badge rule-badge-${c.decision}`}>{c.label}</span> <code className="selectable">{c.text.replaceAll('\n', '⏎')}</code>
            </div>
            <dl className="rule-check-facts">
              {c.wrappers.length > 0 && (
                <>
                  <dt>Looked through</dt>
                  <dd>{c.wrappers.join(', ')}</dd>
                </>
              )}
              {c.rules.map((r) => (
                <FactRow key={r.id} term="Matched" value={ruleString(r)} />
              ))}
              <FactRow term="Why" value={c.reason} />
              {result.writes
                .filter((w) => w.command === i)
                .map((w, j) => (
                  <FactRow key={j} term="Writes" value={writeText(w.via, w.path, w.static)} />
                ))}
            </dl>
          </li>
        ))}
      </ol>
      {result.writes.some((w) => w.command < 0) && (
        <dl className="rule-check-facts">
          {result.writes
            .filter((w) => w.command < 0)
            .map((w, j) => (
              <FactRow key={j} term="A block writes" value={writeText(w.via, w.path, w.static)} />
            ))}
        </dl>
      )}
      {result.suggestions.length > 0 && (
        <p className="field-help">A card for it would offer “Always allow” for: {result.suggestions.join(', ')}.</p>
      )}
    </section>
  );
}

function FactRow({ term, value }: { term: string; value: string }) {
  return (
    <>
      <dt>{term}</dt>
      <dd>{value}</dd>
    </>
  );
}

function writeText(via: string, path: string, known: boolean): string {
  return `${via} ${path}${known ? '' : ' (only known when the shell runs it)'}`;
}
