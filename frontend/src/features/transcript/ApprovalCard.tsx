import { ExternalLink, ShieldAlert } from 'lucide-react';
import { memo, useState } from 'react';
import { toBridgeError, type BridgeError } from '../../bridge/errors';
import type { ApprovalAnswer, ApprovalOutcome } from '../../bridge/types';
import { clip } from '../../lib/tools';
import type { ApprovalItem } from '../../state/transcript';
import { ApprovalDiff } from './ApprovalDiff';
import { ApprovalCommand } from './ApprovalCommand';
import { ALLOW_RULE_ANSWER } from '../../bridge/wire';
import { escapeName } from '../../lib/names';
import { useMCPToolName } from '../mcp/MCPCatalog';

export const PREVIEW_CHARS = 2_000;

const OUTCOME_LABEL: Record<ApprovalOutcome, string> = {
  'allow-once': 'Allowed once',
  'allow-session': 'Allowed for this session',
  deny: 'Denied',
  cancelled: 'Cancelled — the turn was stopped before an answer',
  timeout: 'Timed out without an answer — the call was not run',
  shutdown: 'PI-Desktop shut down before an answer — the call was not run',
  'allow-rule': 'Allowed, and a rule saved',
};

export interface ApprovalCardProps {
  item: ApprovalItem;
  onResolve: (requestId: string, answer: ApprovalAnswer) => Promise<void>;
}

/** An inline permission card; buttons only while the request is pending. */
export const ApprovalCard = memo(function ApprovalCard({ item, onResolve }: ApprovalCardProps) {
  const { request: r, outcome } = item;
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<BridgeError | null>(null);
  const preview = clip(r.preview, PREVIEW_CHARS);
  const answer = async (a: ApprovalAnswer) => {
    setBusy(true);
    setError(null);
    try {
      await onResolve(r.id, a);
    } catch (err) {
      setError(toBridgeError(err));
    } finally {
      setBusy(false);
    }
  };
  const titleId = `approval-title-${r.id}`;
  const command = r.command.dialect !== '';
  // An MCP tool is named by its own name and its server, not mcp_<server>_<tool>; the
  // request names them itself.
  const mcp = useMCPToolName(r.tool, r.server ? { server: r.server, tool: r.serverTool, title: r.toolTitle } : null);
  const toolLabel = mcp ? `${mcp.tool}${mcp.title && mcp.title !== mcp.tool ? ` (${mcp.title})` : ''}${mcp.server ? ` from ${mcp.server}` : ''}` : r.tool;
  return (
    <section
      className={`approval-card risk-${r.risk || 'unknown'}${outcome ? ' is-resolved' : ''}${r.external ? ' is-external' : ''}`}
      aria-labelledby={titleId}
      data-request-id={r.id}
    >
      <header className="approval-head">
        <ShieldAlert size={15} aria-hidden="true" />
        <h3 id={titleId} className="approval-title">
          {outcome ? toolLabel : `Allow ${toolLabel}?`}
        </h3>
        {r.risk && <span className={`badge badge-risk risk-${r.risk}`}>{r.risk} risk</span>}
        {r.delegate && <span className="approval-delegate">requested by {r.delegate}</span>}
      </header>
      {r.reason && <p className="approval-reason">{r.reason}</p>}
      {r.path && (
        <p className={r.external ? 'approval-path is-external' : 'approval-path'}>
          {r.external && (
            <span className="badge badge-external">
              <ExternalLink size={11} aria-hidden="true" /> Outside the workspace
            </span>
          )}
          <code className="selectable">{escapeName(r.path)}</code>
        </p>
      )}
      {r.preview && r.preview !== r.path && (
        <pre className="approval-preview selectable" aria-label="Preview" tabIndex={0}>
          {preview.text}
          {preview.clipped > 0 && `\n… ${preview.clipped.toLocaleString('en-US')} more characters`}
        </pre>
      )}
      {command && <ApprovalCommand effect={r.command} />}
      {(r.diff || r.diffNote) && <ApprovalDiff diff={r.diff} note={r.diffNote} path={r.path} />}
      {r.workspace && (
        <p className="approval-workspace">
          Workspace <code>{r.workspace}</code>
        </p>
      )}
      {outcome === null ? (
        <div className="approval-actions" role="group" aria-label="Answer">
          <button type="button" className="btn btn-primary btn-sm" disabled={busy} onClick={() => void answer('allow-once')}>
            Allow once
          </button>
          <button
            type="button"
            className="btn btn-secondary btn-sm"
            disabled={busy}
            onClick={() => void answer('allow-session')}
            title={command ? 'Allows every command for the rest of this session, not only this one' : undefined}
          >
            {command ? 'Allow every command for session' : 'Allow for session'}
          </button>
          {r.ruleChoices.map((c) => (
            <button
              key={c.id}
              type="button"
              className="btn btn-secondary btn-sm"
              disabled={busy}
              onClick={() => void answer(`${ALLOW_RULE_ANSWER}${c.id}`)}
            >
              {c.label}
            </button>
          ))}
          <button type="button" className="btn btn-danger btn-sm" disabled={busy} onClick={() => void answer('deny')}>
            Deny
          </button>
        </div>
      ) : (
        <p className={`approval-outcome outcome-${outcome}`} role="status">
          {outcome === 'allow-rule' && item.rule ? `Allowed — ${item.rule}` : OUTCOME_LABEL[outcome]}
        </p>
      )}
      {error && outcome === null && (
        <p className="inline-error" role="alert">
          <code className="error-code">{error.code}</code> {error.message}
        </p>
      )}
    </section>
  );
});
