// One MCP server in Settings: its state, where it comes from, what its tools cost, the
// error and last log lines when it failed, and its actions. A project server the user
// has not trusted shows the trust card instead of anything that would start it; a
// project file or folder that cannot be read shows only why.
import { ChevronRight, LogIn, RotateCw, ScrollText } from 'lucide-react';
import { useId, useRef, useState, type ReactNode } from 'react';
import * as bridge from '../../bridge';
import { toBridgeError, type BridgeError } from '../../bridge/errors';
import type { MCPServer, MCPTestResult } from '../../bridge/types';
import { Button } from '../../ui/Button';
import { Toggle } from '../../ui/Toggle';
import { MCP_STATE_LABEL, MCP_TRANSPORT_SHORT, formatTokens, inputOf, isSourceProblem, serverName, serverTarget, toolCount } from './labels';
import { LogDialog } from './LogDialog';
import { LogTail, TestOutcome } from './TestOutcome';
import { TrustCard } from './TrustCard';

export interface ServerItemProps {
  server: MCPServer;
  /** Opens the edit form (app servers only). */
  onEdit?: () => void;
  /** Asks, then removes (app servers only). */
  onRemove?: () => void;
  /** Re-reads the list after an action. */
  onChanged: () => void;
  /** The edit form, shown inside the item. */
  children?: ReactNode;
}

export function ServerItem({ server: s, onEdit, onRemove, onChanged, children }: ServerItemProps) {
  const [error, setError] = useState<BridgeError | null>(null);
  const [busy, setBusy] = useState(false);
  const [test, setTest] = useState<MCPTestResult | 'testing' | null>(null);
  const [showTools, setShowTools] = useState(false);
  const [showLog, setShowLog] = useState(false);
  const [signingIn, setSigningIn] = useState(false);
  const cancelled = useRef(false);
  const toolsId = useId();
  const name = serverName(s);
  // A file or folder that cannot be read: nothing to trust, start or test, only the reason.
  const problem = isSourceProblem(s);
  // Fails closed: whatever its scope, a server not marked trusted offers only the trust card.
  const untrusted = problem || !s.trusted || s.state === 'untrusted';
  const failed = s.state === 'failed' || s.state === 'needs_auth';
  // The backend knows of a sign-in this row did not start (Settings closed and reopened meanwhile).
  const waiting = signingIn || s.signingIn;

  const run = async (action: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await action();
    } catch (err) {
      setError(toBridgeError(err));
    } finally {
      setBusy(false);
      onChanged();
    }
  };

  // Waits on the browser until signed in, cancelled or the app closes; a cancel the user
  // asked for is no error to show.
  const signIn = async () => {
    setSigningIn(true);
    setError(null);
    cancelled.current = false;
    try {
      await bridge.signInMCPServer(s.projectId, s.id);
    } catch (err) {
      if (!cancelled.current) setError(toBridgeError(err));
    } finally {
      setSigningIn(false);
      onChanged();
    }
  };

  const cancelSignIn = async () => {
    cancelled.current = true;
    try {
      await bridge.cancelMCPSignIn(s.projectId, s.id);
    } catch (err) {
      cancelled.current = false;
      setError(toBridgeError(err));
    }
  };

  // An app server tests its saved definition (secrets kept by the backend); a trusted
  // project server is tested by id, as its file defines it.
  const runTest = async () => {
    setTest('testing');
    setError(null);
    try {
      setTest(await (s.scope === 'user' ? bridge.testMCPServer(inputOf(s)) : bridge.testMCPServerByID(s.projectId, s.id)));
    } catch (err) {
      setTest(null);
      setError(toBridgeError(err));
    }
  };

  const enabledTools = s.tools.filter((t) => t.enabled).length;

  return (
    <li className="provider-item mcp-server" aria-label={name}>
      <div className="provider-summary">
        <strong>
          {name}
          <span className={`badge mcp-state mcp-state-${s.state}`}>{problem ? 'Cannot be read' : MCP_STATE_LABEL[s.state]}</span>
          {s.overridden && <span className="badge mcp-overridden">Overridden by the project’s</span>}
        </strong>
        <div className="provider-meta">
          {!problem && <>{MCP_TRANSPORT_SHORT[s.transport]} · </>}
          {s.source === 'app' ? 'App' : <code>{s.source === '.' ? 'project folder' : s.source}</code>}
          {!untrusted && s.tools.length > 0 && (
            <>
              {' '}· {toolCount(s.tools.length)}
              {enabledTools < s.tools.length && <> ({enabledTools} enabled)</>} · {formatTokens(s.schemaTokens)}
            </>
          )}
          {s.omittedTools > 0 && <> · {s.omittedTools} more omitted (64 at most)</>}
          {s.restarts > 0 && <> · restarted {s.restarts}×</>}
        </div>
      </div>
      <div className="provider-actions">
        {!untrusted && (
          <Toggle label={`Enable ${s.id}`} checked={s.enabled} onChange={(v) => void run(() => bridge.setMCPServerEnabled(s.projectId, s.id, v))} />
        )}
        {(s.state === 'needs_auth' || waiting) && !problem && (
          <Button size="sm" variant="primary" icon={<LogIn size={13} aria-hidden="true" />} aria-label={`Sign in to ${s.id}`} disabled={busy || waiting} onClick={() => void signIn()}>
            {waiting ? 'Waiting for the browser…' : 'Sign in'}
          </Button>
        )}
        {waiting && (
          <Button size="sm" variant="ghost" aria-label={`Cancel the sign-in to ${s.id}`} onClick={() => void cancelSignIn()}>
            Cancel
          </Button>
        )}
        {(s.scope === 'user' || !untrusted) && (
          <Button size="sm" aria-label={`Test ${s.id}`} disabled={test === 'testing'} onClick={() => void runTest()}>
            Test
          </Button>
        )}
        {!untrusted && s.enabled && (
          <Button size="sm" icon={<RotateCw size={13} aria-hidden="true" />} aria-label={`Restart ${s.id}`} disabled={busy} onClick={() => void run(() => bridge.restartMCPServer(s.projectId, s.id))}>
            Restart
          </Button>
        )}
        {s.transport === 'stdio' && !untrusted && (
          <Button size="sm" icon={<ScrollText size={13} aria-hidden="true" />} aria-label={`View the log of ${s.id}`} onClick={() => setShowLog(true)}>
            Log
          </Button>
        )}
        {onEdit && (
          <Button size="sm" aria-label={`Edit ${s.id}`} onClick={onEdit}>
            Edit
          </Button>
        )}
        {onRemove && (
          <Button size="sm" variant="ghost" aria-label={`Remove ${s.id}`} onClick={onRemove}>
            Remove
          </Button>
        )}
      </div>
      {/* Under the name and the actions, across the row: a command line is long. */}
      <div className="mcp-server-body">
        {!untrusted && (
          <div className="provider-meta">
            <code className="mcp-target selectable" title={serverTarget(s)}>
              {serverTarget(s)}
            </code>
          </div>
        )}
        {s.overridden && (
          <p className="field-help mcp-override">This project’s own {s.id} replaces it in the project’s sessions; this one serves the others.</p>
        )}
        {failed && (s.error || s.errorCode) && (
          <p className="field-error mcp-server-error">
            {s.error} {s.errorCode && <code className="error-code">{s.errorCode}</code>}
          </p>
        )}
        {s.state === 'failed' && <LogTail lines={s.logTail} />}
        {test !== null && <TestOutcome result={test === 'testing' ? null : test} testing={test === 'testing'} />}
        {error && (
          <p className="field-error" role="alert">
            {error.message} <code className="error-code">{error.code}</code>
          </p>
        )}
      </div>
      {untrusted && !problem && <TrustCard server={s} onTrusted={onChanged} />}
      {!untrusted && s.tools.length > 0 && (
        <div className="mcp-tools">
          <button type="button" className="btn btn-ghost btn-sm" aria-expanded={showTools} aria-controls={toolsId} onClick={() => setShowTools((x) => !x)}>
            <ChevronRight size={13} className={showTools ? 'chevron chevron-open' : 'chevron'} aria-hidden="true" />
            <span>Tools of {s.id}</span>
          </button>
          {showTools && (
            <ul id={toolsId} className="mcp-tool-list" aria-label={`Tools of ${s.id}`}>
              {s.tools.map((t) => (
                <li key={t.name} className="mcp-tool">
                  <div>
                    <code>{t.name}</code>
                    {t.title && t.title !== t.name && <span> — {t.title}</span>}
                    <span className="muted"> · {formatTokens(t.schemaTokens)}</span>
                    {t.description && <p className="field-help">{t.description}</p>}
                  </div>
                  <Toggle label={`Enable tool ${t.name}`} checked={t.enabled} onChange={(v) => void run(() => bridge.setMCPToolEnabled(s.projectId, s.id, t.name, v))} />
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
      {children}
      {showLog && <LogDialog server={s} onClose={() => setShowLog(false)} />}
    </li>
  );
}
