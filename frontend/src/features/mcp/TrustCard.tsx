// The card a project's server shows until the user trusts it for that project: what
// exactly would run (or be contacted), from which file, and the definition being
// trusted. Cloning a repository must never run code, so nothing starts before the click,
// and a changed definition (a new hash) shows the card again.
import { ShieldAlert } from 'lucide-react';
import { useId, useState } from 'react';
import * as bridge from '../../bridge';
import { toBridgeError, type BridgeError } from '../../bridge/errors';
import type { MCPServer } from '../../bridge/types';
import { escapeName } from '../../lib/names';
import { Button } from '../../ui/Button';
import { MCP_TRANSPORT_LABEL, commandLine } from './labels';

export function TrustCard({ server: s, onTrusted }: { server: MCPServer; onTrusted: () => void }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<BridgeError | null>(null);
  const titleId = useId();
  const stdio = s.transport === 'stdio';

  const trust = async () => {
    setBusy(true);
    setError(null);
    try {
      // The hash of exactly what this card shows: a definition changed meanwhile is refused.
      await bridge.trustMCPServer(s.projectId, s.id, s.definitionHash);
      onTrusted();
    } catch (err) {
      setError(toBridgeError(err));
    } finally {
      setBusy(false);
    }
  };

  const rows = stdio ? s.env : s.headers;
  return (
    <section className="mcp-trust" aria-labelledby={titleId}>
      <h4 id={titleId} className="mcp-trust-title">
        <ShieldAlert size={15} aria-hidden="true" /> Trust {s.id} for this project?
      </h4>
      <p className="field-help">
        This project’s <code>{escapeName(s.source)}</code> defines an MCP server. It has not run: PI-Desktop starts it only once you trust
        this exact definition, and asks again if the file changes it.
      </p>
      <dl className="mcp-trust-def">
        <dt>{stdio ? 'Runs' : MCP_TRANSPORT_LABEL[s.transport]}</dt>
        <dd>
          <code className="mcp-trust-command selectable" aria-label={stdio ? 'Command' : 'URL'}>
            {stdio ? commandLine(s.command, s.args) : escapeName(s.url)}
          </code>
        </dd>
        {stdio && s.cwd && (
          <>
            <dt>In</dt>
            <dd>
              <code className="selectable">{escapeName(s.cwd)}</code>
            </dd>
          </>
        )}
        {rows.length > 0 && (
          <>
            <dt>{stdio ? 'Environment' : 'Headers'}</dt>
            <dd>
              <ul className="mcp-trust-rows">
                {rows.map((h) => (
                  <li key={h.name}>
                    <code className="selectable">
                      {escapeName(h.name)}
                      {stdio ? '=' : ': '}
                      {h.secret ? '(secret)' : escapeName(h.value)}
                    </code>
                  </li>
                ))}
              </ul>
            </dd>
          </>
        )}
        <dt>From</dt>
        <dd>
          <code className="selectable">{escapeName(s.source)}</code>
        </dd>
        <dt>Definition</dt>
        <dd>
          <code className="selectable" title={s.definitionHash}>
            {s.definitionHash}
          </code>
        </dd>
      </dl>
      {error && (
        <p className="field-error" role="alert">
          {error.message} <code className="error-code">{error.code}</code>
        </p>
      )}
      <div className="settings-actions">
        <Button variant="primary" disabled={busy || s.definitionHash === ''} onClick={() => void trust()} aria-describedby={titleId}>
          {busy ? 'Starting…' : 'Trust and start'}
        </Button>
      </div>
    </section>
  );
}
