import { ShieldAlert } from 'lucide-react';
import { memo, useState, type KeyboardEvent } from 'react';
import { toBridgeError, type BridgeError } from '../../bridge/errors';
import type { ApprovalAnswer, ApprovalOutcome } from '../../bridge/types';
import { clip } from '../../lib/tools';
import type { ApprovalItem } from '../../state/transcript';
import { ApprovalDiff } from './ApprovalDiff';
import { ApprovalCommand } from './ApprovalCommand';
import { ALLOW_RULE_ANSWER } from '../../bridge/wire';
import { escapeName } from '../../lib/names';
import { useMCPToolName } from '../mcp/MCPCatalog';
import { cardSummary, riskNote, shownPath } from './cardSummary';

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
  /**
   * The card lives inside its tool row, which tells the answer once given: the card then
   * takes no room at all. A card on its own (a delegate's, in the composer) keeps a
   * one-line outcome instead.
   */
  inRow?: boolean;
}

/** The keys that answer a pending card while the focus is in it; shown on its buttons. */
export const CARD_KEYS = { once: 'Enter', session: 'Shift+Enter', deny: 'Escape' } as const;

/**
 * An inline permission card: what the call will do in words (Create FILE, Run COMMAND in
 * FOLDER), the diff or the command, the raw arguments behind "Details", and the answers
 * (Enter allows once, Shift+Enter for the session, Esc denies). The transcript moves the
 * focus to a new card (to its data-autofocus answer). Risk colour only for outside
 * paths, protected paths and commands.
 */
export const ApprovalCard = memo(function ApprovalCard({ item, onResolve, inRow = false }: ApprovalCardProps) {
  const { request: r, outcome } = item;
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<BridgeError | null>(null);
  const answer = async (a: ApprovalAnswer) => {
    if (busy) return;
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
  const onKeyDown = (e: KeyboardEvent<HTMLElement>) => {
    if (outcome !== null || e.altKey || e.ctrlKey || e.metaKey) return;
    // The card may have taken the focus while the user meant to type a message: a
    // letter goes back to the message box (and lands there), so a sentence never
    // presses a button, and Space is never an answer.
    if (e.key === ' ') {
      e.preventDefault();
      return;
    }
    if (e.key.length === 1) {
      const composer = document.querySelector<HTMLTextAreaElement>('textarea.composer-input');
      if (composer && !composer.disabled) {
        composer.focus();
        return;
      }
    }
    if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      void answer('deny');
    } else if (e.key === 'Enter' && e.shiftKey) {
      e.preventDefault();
      void answer('allow-session');
    } else if (e.key === 'Enter' && !(e.target instanceof HTMLButtonElement) && !(e.target instanceof HTMLElement && e.target.closest('summary'))) {
      // On a button Enter presses that button, as everywhere else.
      e.preventDefault();
      void answer('allow-once');
    }
  };
  const titleId = `approval-title-${r.id}`;
  const command = r.command.dialect !== '';
  // An MCP tool is named by its own name and its server, not mcp_<server>_<tool>; the
  // request names them itself.
  const mcp = useMCPToolName(r.tool, r.server ? { server: r.server, tool: r.serverTool, title: r.toolTitle } : null);
  const toolLabel = mcp ? `${mcp.tool}${mcp.title && mcp.title !== mcp.tool ? ` (${mcp.title})` : ''}${mcp.server ? ` from ${mcp.server}` : ''}` : r.tool;
  if (inRow && outcome !== null) return null;
  const summary = cardSummary(r);
  const risk = riskNote(r);
  const hasBody = command || r.diff !== '' || r.diffNote !== '';
  // The raw arguments repeat what the diff or the command shows: details only, then.
  const rawArgs = r.preview && r.preview !== r.path ? r.preview : '';
  return (
    <section
      className={`approval-card${risk ? ' is-risky' : ''}${outcome ? ' is-resolved' : ''}${r.external ? ' is-external' : ''}${inRow ? ' in-row' : ''}`}
      aria-labelledby={titleId}
      data-request-id={r.id}
      onKeyDown={onKeyDown}
    >
      <header className="approval-head">
        <ShieldAlert size={15} aria-hidden="true" />
        <h3 id={titleId} className="approval-title">
          {outcome ? toolLabel : `Allow ${toolLabel}?`}
        </h3>
        {risk && <span className="badge badge-risk">{risk}</span>}
        {r.delegate && <span className="approval-delegate">requested by {r.delegate}</span>}
      </header>
      {summary ? (
        <p className="approval-what">
          {summary.verb}{' '}
          {summary.target && (
            <code className="selectable" title={summary.command ? undefined : escapeName(r.path)}>
              {summary.target}
            </code>
          )}
          {summary.folder && (
            <>
              {' '}
              in <span title={r.workspace}>{summary.folder}</span>
            </>
          )}
        </p>
      ) : (
        r.path && (
          <p className="approval-path">
            <code className="selectable">{shownPath(r.path, r.workspace)}</code>
          </p>
        )
      )}
      {r.reason && (risk || !summary) && <p className="approval-reason">{r.reason}</p>}
      {command && <ApprovalCommand effect={r.command} />}
      {(r.diff || r.diffNote) && <ApprovalDiff diff={r.diff} note={r.diffNote === 'new file' ? '' : r.diffNote} path={r.path} />}
      {rawArgs && !hasBody && <Preview text={rawArgs} />}
      {(rawArgs && hasBody) || r.workspace ? (
        <details className="approval-details">
          <summary>Details</summary>
          {rawArgs && hasBody && <Preview text={rawArgs} />}
          {summary?.command !== true && r.path && summary?.target !== escapeName(r.path) && <p className="approval-workspace">File <code className="selectable">{escapeName(r.path)}</code></p>}
          {r.workspace && (
            <p className="approval-workspace">
              Workspace <code>{r.workspace}</code>
            </p>
          )}
        </details>
      ) : null}
      {outcome === null ? (
        <div className="approval-actions" role="group" aria-label="Answer">
          <button
            type="button"
            className="btn btn-primary btn-sm"
            disabled={busy}
            onClick={() => void answer('allow-once')}
            aria-keyshortcuts={CARD_KEYS.once}
            data-autofocus
          >
            Allow once <kbd aria-hidden="true">Enter</kbd>
          </button>
          <button
            type="button"
            className="btn btn-secondary btn-sm"
            disabled={busy}
            onClick={() => void answer('allow-session')}
            aria-keyshortcuts={CARD_KEYS.session}
            title={command ? 'Allows every command for the rest of this session, not only this one' : undefined}
          >
            {command ? 'Allow every command for session' : 'Allow for session'} <kbd aria-hidden="true">Shift+Enter</kbd>
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
          <button type="button" className="btn btn-secondary btn-sm approval-deny" disabled={busy} onClick={() => void answer('deny')} aria-keyshortcuts={CARD_KEYS.deny}>
            Deny <kbd aria-hidden="true">Esc</kbd>
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

function Preview({ text }: { text: string }) {
  const preview = clip(text, PREVIEW_CHARS);
  return (
    <pre className="approval-preview selectable" aria-label="Preview" tabIndex={0}>
      {preview.text}
      {preview.clipped > 0 && `\n… ${preview.clipped.toLocaleString('en-US')} more characters`}
    </pre>
  );
}
