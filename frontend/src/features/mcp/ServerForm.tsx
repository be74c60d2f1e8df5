// The add/edit form of an app MCP server. Secret env and header values are write-only:
// the backend never returns them, their field is never prefilled, and "" keeps the saved one.
import { Plus, Trash2 } from 'lucide-react';
import { useId, useRef, useState, type FormEvent } from 'react';
import * as bridge from '../../bridge';
import { toBridgeError, type BridgeError } from '../../bridge/errors';
import type { MCPHeader, MCPServer, MCPServerInput, MCPTestResult, MCPTransport } from '../../bridge/types';
import { Button, IconButton } from '../../ui/Button';
import { Toggle } from '../../ui/Toggle';
import { DEFAULT_CALL_TIMEOUT_S, DEFAULT_CONNECT_TIMEOUT_S, MAX_CALL_TIMEOUT_S, MAX_CONNECT_TIMEOUT_S, MCP_TRANSPORT_LABEL } from './labels';
import { TestOutcome } from './TestOutcome';

type Field = 'id' | 'transport' | 'command' | 'args' | 'env' | 'cwd' | 'url' | 'headers' | 'connectTimeoutMs' | 'callTimeoutMs';
const FIELDS: readonly Field[] = ['id', 'transport', 'command', 'args', 'env', 'cwd', 'url', 'headers', 'connectTimeoutMs', 'callTimeoutMs'];
/** The names backend/mcp's definition check gives some fields. */
const FIELD_ALIASES: Record<string, Field> = { type: 'transport', connectTimeout: 'connectTimeoutMs', callTimeout: 'callTimeoutMs' };

interface Row {
  key: number;
  name: string;
  value: string;
  secret: boolean;
  /** A secret value is saved for this row (only then may value stay ""). */
  saved: boolean;
  /** The name it is saved under: a renamed row needs its value again. */
  savedName: string;
}

interface Draft {
  id: string;
  transport: MCPTransport;
  command: string;
  /** One argument per line, exactly as passed. */
  args: string;
  env: Row[];
  cwd: string;
  url: string;
  headers: Row[];
  enabled: boolean;
  connectTimeout: string;
  callTimeout: string;
}

function toDraft(s: MCPServer | null, nextKey: () => number): Draft {
  const rows = (hs: MCPHeader[]) =>
    hs.map((h) => ({ key: nextKey(), name: h.name, value: h.secret ? '' : h.value, secret: h.secret, saved: h.secret && h.hasValue, savedName: h.name }));
  const seconds = (ms: number) => (ms > 0 ? String(Math.round(ms / 1000)) : '');
  return {
    id: s?.id ?? '',
    transport: s?.transport ?? 'stdio',
    command: s?.command ?? '',
    args: (s?.args ?? []).join('\n'),
    env: rows(s?.env ?? []),
    cwd: s?.cwd ?? '',
    url: s?.url ?? '',
    headers: rows(s?.headers ?? []),
    enabled: s?.enabled ?? true,
    connectTimeout: seconds(s?.connectTimeoutMs ?? 0),
    callTimeout: seconds(s?.callTimeoutMs ?? 0),
  };
}

/** Whole seconds in 1..max ("" = 0, the default), or null. */
function parseSeconds(text: string, max: number): number | null {
  const t = text.trim();
  if (t === '') return 0;
  if (!/^\d+$/.test(t)) return null;
  const n = Number(t);
  return n >= 1 && n <= max ? n : null;
}

/** Why the rows are not valid (null when they are). */
function rowsError(rows: Row[], what: 'variable' | 'header'): string | null {
  const names = rows.map((r) => r.name.trim());
  for (const [i, r] of rows.entries()) {
    const n = names[i]!;
    if (n === '') return `Give every ${what} a name, or remove the empty row.`;
    if (what === 'variable' && !/^[A-Za-z_][A-Za-z0-9_]*$/.test(n)) return `“${n}” is not a variable name: use letters, digits and underscores, not starting with a digit.`;
    if (what === 'header' && !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(n)) return `“${n}” is not a header name.`;
    if (names.indexOf(n) !== i) return `${n} is listed twice; remove one.`;
    const kept = r.saved && n === r.savedName;
    if (r.secret && r.value === '' && !kept) return `Enter the secret value of ${n}.`;
    if (!r.secret && kept && r.value === '') return `The saved secret of ${n} is not shown here: enter its value again to make it visible, or keep it secret.`;
  }
  return null;
}

export interface ServerFormProps {
  /** null adds a server. */
  server: MCPServer | null;
  onSaved: (s: MCPServer) => void;
  onCancel: () => void;
}

export function ServerForm({ server, onSaved, onCancel }: ServerFormProps) {
  const keys = useRef(0);
  const nextKey = () => ++keys.current;
  const [draft, setDraft] = useState<Draft>(() => toDraft(server, nextKey));
  const [fieldErrors, setFieldErrors] = useState<Partial<Record<Field, string>>>({});
  const [error, setError] = useState<BridgeError | null>(null);
  const [busy, setBusy] = useState<'' | 'saving' | 'testing'>('');
  const [test, setTest] = useState<MCPTestResult | null>(null);
  const id = useId();
  const ids = (k: string) => `${id}-${k}`;
  const stdio = draft.transport === 'stdio';

  const edit = (patch: Partial<Draft>, field?: Field) => {
    setDraft((d) => ({ ...d, ...patch }));
    setFieldErrors((f) => {
      const next = { ...f };
      for (const k of field ? [field] : Object.keys(patch)) delete next[k as Field];
      return next;
    });
    setError(null);
    setTest(null);
  };

  /** The form as the backend takes it, or null after marking the invalid fields. */
  const input = (): MCPServerInput | null => {
    const connect = parseSeconds(draft.connectTimeout, MAX_CONNECT_TIMEOUT_S);
    const call = parseSeconds(draft.callTimeout, MAX_CALL_TIMEOUT_S);
    const errs: Partial<Record<Field, string>> = {};
    const name = draft.id.trim();
    if (name === '') errs.id = 'Enter a name: the model sees its tools as mcp_<name>_<tool>.';
    else if (!/^[A-Za-z0-9_-]+$/.test(name)) errs.id = 'Use letters, digits, _ and - only.';
    if (stdio && draft.command.trim() === '') errs.command = 'Enter the command that starts the server, e.g. npx.';
    if (!stdio && !/^https?:\/\/\S+$/i.test(draft.url.trim())) errs.url = 'Enter the server’s http:// or https:// URL.';
    const envError = stdio ? rowsError(draft.env, 'variable') : null;
    if (envError) errs.env = envError;
    const headersError = stdio ? null : rowsError(draft.headers, 'header');
    if (headersError) errs.headers = headersError;
    if (connect === null) errs.connectTimeoutMs = `Enter whole seconds from 1 to ${MAX_CONNECT_TIMEOUT_S}, or leave it empty for ${DEFAULT_CONNECT_TIMEOUT_S} s.`;
    if (call === null) errs.callTimeoutMs = `Enter whole seconds from 1 to ${MAX_CALL_TIMEOUT_S}, or leave it empty for ${DEFAULT_CALL_TIMEOUT_S} s.`;
    setFieldErrors(errs);
    if (Object.keys(errs).length > 0 || connect === null || call === null) return null;
    const rows = (rs: Row[]): MCPHeader[] =>
      rs.map((r) => ({ name: r.name.trim(), value: r.value, secret: r.secret, hasValue: r.saved && r.name.trim() === r.savedName }));
    return {
      id: name,
      transport: draft.transport,
      command: stdio ? draft.command.trim() : '',
      args: stdio ? draft.args.split('\n').filter((a) => a.trim() !== '') : [],
      env: stdio ? rows(draft.env) : [],
      cwd: stdio ? draft.cwd.trim() : '',
      url: stdio ? '' : draft.url.trim(),
      headers: stdio ? [] : rows(draft.headers),
      enabled: draft.enabled,
      connectTimeoutMs: connect * 1000,
      callTimeoutMs: call * 1000,
    };
  };

  const showError = (err: unknown) => {
    const be = toBridgeError(err);
    // details.field may point inside a list ("env[1].name", "headers.0.value").
    const named = be.field?.split(/[.[]/)[0] ?? '';
    const field = FIELD_ALIASES[named] ?? (named as Field);
    if (FIELDS.includes(field)) setFieldErrors((f) => ({ ...f, [field]: be.message }));
    else setError(be);
  };

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    const next = input();
    if (!next) return;
    setBusy('saving');
    setError(null);
    try {
      onSaved(await bridge.saveMCPServer(next));
    } catch (err) {
      showError(err);
    } finally {
      setBusy('');
    }
  };

  const onTest = async () => {
    const next = input();
    if (!next) return;
    setBusy('testing');
    setError(null);
    setTest(null);
    try {
      setTest(await bridge.testMCPServer(next));
    } catch (err) {
      showError(err);
    } finally {
      setBusy('');
    }
  };

  const title = server ? `Edit ${server.id}` : 'Add an MCP server';
  const errorProps = (f: Field) => ({ error: fieldErrors[f], errorId: ids(`${f}-err`) });

  return (
    <form className="settings-form provider-form mcp-form" aria-label={title} onSubmit={(e) => void onSubmit(e)} noValidate>
      <h3 className="provider-form-title">{title}</h3>
      <TextField
        id={ids('id')}
        label="Name"
        value={draft.id}
        readOnly={server !== null}
        help={server ? 'The name cannot change; remove the server and add it again to rename it.' : 'Letters, digits, _ and -. The model sees its tools as mcp_<name>_<tool>.'}
        placeholder="e.g. github"
        onChange={(v) => edit({ id: v })}
        {...errorProps('id')}
      />
      <div className="field">
        <label className="field-label" htmlFor={ids('transport')}>Transport</label>
        <select id={ids('transport')} className="select" value={draft.transport} onChange={(e) => edit({ transport: e.target.value as MCPTransport })}>
          {(Object.keys(MCP_TRANSPORT_LABEL) as MCPTransport[]).map((t) => (
            <option key={t} value={t}>
              {MCP_TRANSPORT_LABEL[t]}
            </option>
          ))}
        </select>
      </div>
      {stdio ? (
        <>
          <TextField id={ids('command')} label="Command" wide value={draft.command} placeholder="e.g. npx, uvx or docker" help="Found on your login shell’s PATH." onChange={(v) => edit({ command: v })} {...errorProps('command')} />
          <div className="field">
            <label className="field-label" htmlFor={ids('args')}>Arguments</label>
            <p id={ids('args-help')} className="field-help">One argument per line, passed exactly as written (no shell).</p>
            <textarea
              id={ids('args')}
              className="input mcp-args mcp-wide"
              rows={3}
              spellCheck={false}
              placeholder={'-y\n@modelcontextprotocol/server-everything'}
              value={draft.args}
              aria-invalid={Boolean(fieldErrors.args) || undefined}
              aria-describedby={[ids('args-help'), fieldErrors.args && ids('args-err')].filter(Boolean).join(' ')}
              onChange={(e) => edit({ args: e.target.value })}
            />
            <FieldError id={ids('args-err')} error={fieldErrors.args} />
          </div>
          <Rows
            label="Environment variables"
            what="variable"
            help="Added to the command’s environment, which otherwise follows Settings → Agent → Command environment. A secret value is kept in the OS keychain and never shown again."
            rows={draft.env}
            onChange={(env) => edit({ env }, 'env')}
            nextKey={nextKey}
            {...errorProps('env')}
          />
          <TextField id={ids('cwd')} label="Working folder (optional)" wide value={draft.cwd} placeholder="default: the session’s workspace" onChange={(v) => edit({ cwd: v })} {...errorProps('cwd')} />
        </>
      ) : (
        <>
          <TextField id={ids('url')} label="URL" wide type="url" value={draft.url} placeholder="https://example.com/mcp" onChange={(v) => edit({ url: v })} {...errorProps('url')} />
          <Rows
            label="Headers"
            what="header"
            help="Sent with every request. A secret value (a bearer token, an API key) is kept in the OS keychain and never shown again."
            rows={draft.headers}
            onChange={(headers) => edit({ headers }, 'headers')}
            nextKey={nextKey}
            {...errorProps('headers')}
          />
        </>
      )}
      <TextField
        id={ids('connect')}
        label="Connect timeout (seconds)"
        inputMode="numeric"
        value={draft.connectTimeout}
        placeholder={`default ${DEFAULT_CONNECT_TIMEOUT_S}, at most ${MAX_CONNECT_TIMEOUT_S}`}
        onChange={(v) => edit({ connectTimeout: v }, 'connectTimeoutMs')}
        {...errorProps('connectTimeoutMs')}
      />
      <TextField
        id={ids('call')}
        label="Tool call timeout (seconds)"
        inputMode="numeric"
        value={draft.callTimeout}
        placeholder={`default ${DEFAULT_CALL_TIMEOUT_S}, at most ${MAX_CALL_TIMEOUT_S}`}
        onChange={(v) => edit({ callTimeout: v }, 'callTimeoutMs')}
        {...errorProps('callTimeoutMs')}
      />
      <div className="field field-row">
        <div>
          <div className="field-label">Enabled</div>
          <p id={ids('enabled-help')} className="field-help">An enabled server starts with the app and offers its tools to every session.</p>
        </div>
        <Toggle label="Enabled" checked={draft.enabled} onChange={(v) => edit({ enabled: v })} describedBy={ids('enabled-help')} />
      </div>
      <TestOutcome result={test} testing={busy === 'testing'} />
      <div className="settings-actions">
        {error && (
          <p className="field-error" role="alert">
            {error.message} <span className="error-code">{error.code}</span>
          </p>
        )}
        <Button onClick={() => void onTest()} disabled={busy !== ''}>
          Test
        </Button>
        <Button variant="ghost" onClick={onCancel} disabled={busy === 'saving'}>
          Cancel
        </Button>
        <Button type="submit" variant="primary" disabled={busy !== ''}>
          {server ? 'Save server' : 'Add server'}
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

interface RowsProps {
  label: string;
  what: 'variable' | 'header';
  help: string;
  rows: Row[];
  onChange: (rows: Row[]) => void;
  nextKey: () => number;
  error?: string;
  errorId: string;
}

/** Name/value rows with a secret toggle: env variables or HTTP headers. */
function Rows({ label, what, help, rows, onChange, nextKey, error, errorId }: RowsProps) {
  const helpId = useId();
  const set = (key: number, patch: Partial<Row>) => onChange(rows.map((r) => (r.key === key ? { ...r, ...patch } : r)));
  const noun = what === 'variable' ? 'Variable' : 'Header';
  return (
    <div className="field" role="group" aria-label={label} aria-describedby={error ? `${helpId} ${errorId}` : helpId}>
      <div className="field-label">{label}</div>
      <p id={helpId} className="field-help">{help}</p>
      {rows.length > 0 && (
        <ul className="mcp-rows">
          {rows.map((r, i) => (
            <li key={r.key} className="mcp-row">
              <input
                className="input"
                aria-label={`${noun} ${i + 1} name`}
                spellCheck={false}
                autoComplete="off"
                placeholder={what === 'variable' ? 'NAME' : 'Authorization'}
                value={r.name}
                aria-invalid={Boolean(error) || undefined}
                onChange={(e) => set(r.key, { name: e.target.value })}
              />
              <input
                className="input"
                aria-label={`${noun} ${i + 1} value`}
                type={r.secret ? 'password' : 'text'}
                spellCheck={false}
                autoComplete={r.secret ? 'new-password' : 'off'}
                placeholder={r.saved && r.secret && r.name.trim() === r.savedName ? 'Saved — leave empty to keep' : 'value'}
                value={r.value}
                onChange={(e) => set(r.key, { value: e.target.value })}
              />
              <label className="checkbox-label">
                <input type="checkbox" checked={r.secret} onChange={(e) => set(r.key, { secret: e.target.checked })} /> Secret
              </label>
              <IconButton label={`Remove ${noun.toLowerCase()} ${i + 1}`} onClick={() => onChange(rows.filter((x) => x.key !== r.key))}>
                <Trash2 size={14} aria-hidden="true" />
              </IconButton>
            </li>
          ))}
        </ul>
      )}
      <div>
        <Button size="sm" icon={<Plus size={13} aria-hidden="true" />} onClick={() => onChange([...rows, { key: nextKey(), name: '', value: '', secret: what === 'header', saved: false, savedName: '' }])}>
          {what === 'variable' ? 'Add variable' : 'Add header'}
        </Button>
      </div>
      <FieldError id={errorId} error={error} />
    </div>
  );
}

interface TextFieldProps {
  id: string;
  label: string;
  value: string;
  onChange: (v: string) => void;
  error?: string;
  errorId?: string;
  help?: string;
  placeholder?: string;
  type?: 'text' | 'url';
  inputMode?: 'numeric';
  readOnly?: boolean;
  /** Spans the form's width: commands, paths and URLs are long. */
  wide?: boolean;
}

function TextField({ id, label, value, onChange, error, errorId = `${id}-err`, help, placeholder, type = 'text', inputMode, readOnly, wide }: TextFieldProps) {
  const describedBy = [help && `${id}-help`, error && errorId].filter(Boolean).join(' ') || undefined;
  return (
    <div className="field">
      <label className="field-label" htmlFor={id}>{label}</label>
      {help && (
        <p id={`${id}-help`} className="field-help">
          {help}
        </p>
      )}
      <input
        id={id}
        className={wide ? 'input mcp-wide' : 'input'}
        type={type}
        inputMode={inputMode}
        spellCheck={false}
        autoComplete="off"
        placeholder={placeholder}
        value={value}
        readOnly={readOnly}
        aria-invalid={Boolean(error) || undefined}
        aria-describedby={describedBy}
        onChange={(e) => onChange(e.target.value)}
      />
      <FieldError id={errorId} error={error} />
    </div>
  );
}
