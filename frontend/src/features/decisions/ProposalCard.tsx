import { ClipboardCheck, Goal, X } from 'lucide-react';
import { memo, useId, useRef, useState, type KeyboardEvent } from 'react';
import { toBridgeError, type BridgeError } from '../../bridge/errors';
import type { PermissionMode, Proposal } from '../../bridge/types';
import { PERMISSION_MODES } from '../../lib/labels';
import { isPending, type ProposalCard as ProposalCardState } from '../../state/decisions';
import { IconButton } from '../../ui/Button';
import { Markdown } from '../transcript/Markdown';
import { useCardFocus } from './focus';
import { ClosedOutcome } from './ClosedOutcome';
import { kindLabel, proposalOutcome } from './outcomes';

export interface ProposalCardProps {
  card: ProposalCardState;
  onApprove: (p: Proposal, mode: PermissionMode, note: string) => Promise<void>;
  onReject: (p: Proposal, feedback: string) => Promise<void>;
  onDismiss: (key: string) => void;
  onCheckAgain: (key: string) => void;
}

/**
 * A submitted plan or goal: its Markdown, where it is saved, the agent's question, the
 * permission mode to continue in (Ask preselected) and Approve / Reject with feedback.
 */
export const ProposalCard = memo(function ProposalCard({ card, onApprove, onReject, onDismiss, onCheckAgain }: ProposalCardProps) {
  const p = card.proposal;
  const pending = isPending(card);
  const kind = kindLabel(p.kind);
  const [mode, setMode] = useState<PermissionMode>('ask');
  const [feedback, setFeedback] = useState('');
  const [busy, setBusy] = useState<'approve' | 'reject' | null>(null);
  const [error, setError] = useState<BridgeError | null>(null);
  const id = useId();
  const rootRef = useRef<HTMLElement>(null);
  const outcomeRef = useRef<HTMLDivElement>(null);
  const modesRef = useRef<HTMLDivElement>(null);
  useCardFocus(rootRef, outcomeRef, pending);

  const run = async (which: 'approve' | 'reject') => {
    if (busy || !pending) return;
    setBusy(which);
    setError(null);
    try {
      const text = feedback.trim();
      if (which === 'approve') await onApprove(p, mode, text);
      else await onReject(p, text);
    } catch (err) {
      setError(toBridgeError(err));
    } finally {
      setBusy(null);
    }
  };

  const onModeKey = (e: KeyboardEvent<HTMLInputElement>, index: number) => {
    if (e.key === 'Enter') {
      // Enter on a mode approves with it; it must never submit the composer around us.
      e.preventDefault();
      void run('approve');
      return;
    }
    const delta = e.key === 'ArrowDown' || e.key === 'ArrowRight' ? 1 : e.key === 'ArrowUp' || e.key === 'ArrowLeft' ? -1 : 0;
    if (delta === 0) return;
    e.preventDefault();
    const next = (index + delta + PERMISSION_MODES.length) % PERMISSION_MODES.length;
    const m = PERMISSION_MODES[next];
    if (!m) return;
    setMode(m.value);
    modesRef.current?.querySelectorAll<HTMLInputElement>('input')[next]?.focus();
  };

  const titleId = `${id}-title`;
  const feedbackId = `${id}-feedback`;
  const feedbackHint = `${id}-feedback-hint`;
  const Icon = p.kind === 'goal' ? Goal : ClipboardCheck;

  return (
    <section
      ref={rootRef}
      className={`decision-card decision-proposal kind-${p.kind}${pending ? '' : ' is-resolved'}`}
      aria-labelledby={titleId}
      data-proposal-id={p.proposalId}
    >
      <header className="decision-head">
        <Icon size={15} aria-hidden="true" />
        <h3 id={titleId} className="decision-title">
          {kind}: {p.title || `untitled ${kind.toLowerCase()}`}
        </h3>
        {p.version > 0 && <span className="badge decision-version">v{p.version}</span>}
        {!pending && (
          <IconButton label="Dismiss" className="decision-dismiss" onClick={() => onDismiss(card.key)}>
            <X size={14} aria-hidden="true" />
          </IconButton>
        )}
      </header>
      {p.path && (
        <p className="decision-path">
          Saved at <code className="selectable">{p.path}</code>
        </p>
      )}
      {pending ? (
        <>
          {/* The focus starts on the document, to read first: a stray Enter approves nothing. */}
          <div className="decision-document" tabIndex={0} role="region" aria-label={`${kind} document`} data-autofocus="">
            <Markdown source={p.markdown} />
          </div>
          {p.question && <p className="decision-question">{p.question}</p>}
          <fieldset className="decision-modes" disabled={busy !== null}>
            <legend>If you approve, continue in Agent mode with</legend>
            <div ref={modesRef} className="decision-mode-options">
              {PERMISSION_MODES.map((m, i) => {
                const optId = `${id}-mode-${m.value}`;
                return (
                  <label key={m.value} className={`decision-mode${mode === m.value ? ' is-checked' : ''} mode-${m.value}`}>
                    <input
                      type="radio"
                      name={`${id}-mode`}
                      value={m.value}
                      checked={mode === m.value}
                      tabIndex={mode === m.value ? 0 : -1}
                      aria-labelledby={`${optId}-label`}
                      aria-describedby={`${optId}-desc`}
                      onChange={() => setMode(m.value)}
                      onKeyDown={(e) => onModeKey(e, i)}
                    />
                    <span className="ask-option-text">
                      <span id={`${optId}-label`} className="ask-option-label">
                        {m.label}
                      </span>
                      <span id={`${optId}-desc`} className="ask-option-desc">
                        {m.description}
                      </span>
                    </span>
                  </label>
                );
              })}
            </div>
          </fieldset>
          <label className="ask-text-label" htmlFor={feedbackId}>
            Feedback
          </label>
          <textarea
            id={feedbackId}
            className="ask-text"
            rows={2}
            value={feedback}
            disabled={busy !== null}
            aria-describedby={feedbackHint}
            placeholder={`What should change in this ${kind.toLowerCase()}?`}
            onChange={(e) => setFeedback(e.target.value)}
          />
          <p id={feedbackHint} className="decision-hint">
            {feedback.trim() === ''
              ? `Sent with Reject so the agent knows what to change — without it, the agent has to guess.`
              : 'Sent with Reject; with Approve it goes along as a note.'}
          </p>
          <div className="decision-actions" role="group" aria-label="Decision">
            <button type="button" className="btn btn-primary btn-sm" disabled={busy !== null} onClick={() => void run('approve')}>
              {busy === 'approve' ? 'Approving…' : 'Approve'}
            </button>
            <button type="button" className="btn btn-secondary btn-sm" disabled={busy !== null} onClick={() => void run('reject')}>
              {busy === 'reject' ? 'Rejecting…' : feedback.trim() === '' ? 'Reject' : 'Reject with feedback'}
            </button>
          </div>
          <p className="decision-gate">
            The agent waits for your decision. Stop ends the turn and cancels the {kind.toLowerCase()}.
          </p>
          {error && (
            <p className="inline-error" role="alert">
              <code className="error-code">{error.code}</code> {error.message}
            </p>
          )}
        </>
      ) : (
        <div ref={outcomeRef} tabIndex={-1} className="decision-outcome-block" role="status">
          <ProposalOutcome card={card} onCheckAgain={onCheckAgain} />
        </div>
      )}
    </section>
  );
});

function ProposalOutcome({ card, onCheckAgain }: { card: ProposalCardState; onCheckAgain: (key: string) => void }) {
  const p = card.proposal;
  if (card.closedBy) {
    return (
      <ClosedOutcome
        label="Not applied"
        closedBy={card.closedBy}
        onCheckAgain={card.closedBy.code !== 'PLAN_APPROVAL_INTERRUPTED' ? () => onCheckAgain(card.key) : undefined}
      />
    );
  }
  return (
    <div>
      <p className={`decision-outcome outcome-${p.state}`}>{proposalOutcome(p.kind, p.state, p.permissionMode, p.path)}</p>
      {p.feedback && (
        <blockquote className="decision-feedback selectable" aria-label={p.state === 'rejected' ? 'Feedback' : 'Note'}>
          {p.feedback}
        </blockquote>
      )}
    </div>
  );
}
