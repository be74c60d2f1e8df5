// One review record in the Review pane: path, +/- counts, state, its diff, and Rollback
// behind a confirmation. A refused rollback shows why and what changed since; nothing
// else on the card (or in the workspace) changes.
import { Ban, ChevronDown, ChevronRight, RotateCcw, Undo2 } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { reviewSince, type ReviewSince, type RollbackConflictReason } from '../../bridge/activity';
import { ErrorCode, toBridgeError, type BridgeError } from '../../bridge/errors';
import type { ReviewChange } from '../../bridge/types';
import { Button } from '../../ui/Button';
import { useConfirm } from '../../ui/Dialog';
import { DiffView } from './DiffView';
import { hunkLineCount } from './groups';
import { escapeName } from '../../lib/names';
import { rollbackEffect } from './wording';

/** Diffs longer than this start collapsed. */
export const OPEN_DIFF_LINES = 300;

const REASON_TEXT: Record<RollbackConflictReason, string> = {
  changed: 'The file was changed after this edit.',
  missing: 'The file was removed after this edit.',
  existsAgain: 'A new file was created at this path after the agent deleted it.',
  notRegular: 'A link, folder or special file is now at this path.',
  hardLinked: 'The file now has another hard link.',
  redirected: 'The path now leads through a symbolic link.',
  alreadyRolledBack: 'This change was already rolled back.',
};

const STATUS_TEXT: Record<string, string> = { added: 'Added', modified: 'Modified', deleted: 'Deleted' };

type Outcome = { kind: 'done'; paths: string[] } | { kind: 'failed'; error: BridgeError } | null;

export interface ChangeCardProps {
  change: ReviewChange;
  /** The other half of a move (MV): rolled back together. */
  partner: ReviewChange | undefined;
  onRollback: (snapshotId: string) => Promise<ReviewChange[]>;
  /** Re-read the records (after a conflict that says the list is stale). */
  onStale: () => void;
}

export function ChangeCard({ change, partner, onRollback, onStale }: ChangeCardProps) {
  const confirm = useConfirm();
  const diffId = useId();
  const lines = hunkLineCount(change.hunks);
  const [open, setOpen] = useState(lines <= OPEN_DIFF_LINES);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const outcomeRef = useRef<HTMLDivElement>(null);
  const rolledBack = change.state === 'rolledBack';

  // The result takes the focus, so a keyboard user hears it and is not left on a
  // button that disappeared.
  useEffect(() => {
    if (outcome) outcomeRef.current?.focus();
  }, [outcome]);

  const rollback = async () => {
    const ok = await confirm({
      title: 'Roll back this change?',
      message: (
        <>
          <p>{rollbackEffect(change)}</p>
          {partner && (
            <p>
              This change is half of a move: <code>{escapeName(partner.path)}</code> is rolled back with it.
            </p>
          )}
          <p className="muted">If the file changed since, nothing is touched and you are shown what changed.</p>
        </>
      ),
      confirmLabel: 'Roll back',
    });
    if (!ok) return;
    setBusy(true);
    setOutcome(null);
    try {
      const changed = await onRollback(change.snapshotId);
      setOutcome({ kind: 'done', paths: changed.map((c) => escapeName(c.path)) });
    } catch (err) {
      const error = toBridgeError(err);
      setOutcome({ kind: 'failed', error });
      if (error.code === ErrorCode.Conflict && error.details.reason === 'alreadyRolledBack') onStale();
    } finally {
      setBusy(false);
    }
  };

  return (
    <li className={`change-card${rolledBack ? ' is-rolled-back' : ''}`} aria-label={escapeName(change.path)}>
      <div className="change-head">
        <button
          type="button"
          className="change-toggle"
          aria-expanded={open}
          aria-controls={diffId}
          onClick={() => setOpen((o) => !o)}
          title={open ? 'Hide the diff' : 'Show the diff'}
        >
          {open ? <ChevronDown size={14} aria-hidden="true" /> : <ChevronRight size={14} aria-hidden="true" />}
          <span className="change-path">{escapeName(change.path)}</span>
        </button>
        <span className={`change-status status-${change.status}`}>{STATUS_TEXT[change.status] ?? change.status}</span>
        <span className="change-counts" aria-label={`${change.additions} added, ${change.deletions} removed lines`}>
          <span className="diff-add">+{change.additions}</span> <span className="diff-del">−{change.deletions}</span>
        </span>
        {rolledBack ? (
          <span className="change-state state-rolled-back">
            <Undo2 size={12} aria-hidden="true" /> Rolled back
          </span>
        ) : change.reversible ? (
          <Button
            size="sm"
            variant="ghost"
            disabled={busy}
            icon={<RotateCcw size={13} aria-hidden="true" />}
            onClick={() => void rollback()}
            aria-label={`${busy ? 'Rolling back' : 'Roll back'} ${escapeName(change.path)}`}
            title={rollbackEffect(change)}
          >
            {busy ? 'Rolling back…' : 'Roll back'}
          </Button>
        ) : (
          <span className="change-state" title="Too large to keep a snapshot; restore it by hand">
            <Ban size={12} aria-hidden="true" /> Not reversible
          </span>
        )}
      </div>
      {outcome && (
        <div ref={outcomeRef} tabIndex={-1} className={`change-outcome outcome-${outcome.kind}`} role={outcome.kind === 'done' ? 'status' : 'alert'}>
          {outcome.kind === 'done' ? (
            <p>Rolled back: {outcome.paths.join(' and ')} {outcome.paths.length > 1 ? 'are' : 'is'} as before this change.</p>
          ) : (
            <RollbackFailure error={outcome.error} />
          )}
        </div>
      )}
      <div id={diffId} hidden={!open}>
        {open && <ChangeBody change={change} />}
      </div>
    </li>
  );
}

function ChangeBody({ change }: { change: ReviewChange }) {
  return (
    <>
      {change.binary && <p className="change-note">Binary file: no diff is shown.</p>}
      {!change.binary && change.hunks.length === 0 && !change.truncated && <p className="change-note">No line changes.</p>}
      {change.hunks.length > 0 && <DiffView hunks={change.hunks} label={`Diff of ${escapeName(change.path)}`} />}
      {change.truncated && <p className="change-note">The diff is too large to show completely; the counts are exact.</p>}
    </>
  );
}

function RollbackFailure({ error }: { error: BridgeError }) {
  const reason = typeof error.details.reason === 'string' ? (error.details.reason as RollbackConflictReason) : null;
  const since = error.code === ErrorCode.Conflict ? reviewSince(error.details) : null;
  return (
    <>
      <p>
        <code className="error-code">{error.code}</code> {error.message}
      </p>
      {reason && REASON_TEXT[reason] && <p className="conflict-reason">{REASON_TEXT[reason]}</p>}
      {error.code === ErrorCode.Conflict && reason !== 'alreadyRolledBack' && <p className="conflict-untouched">Nothing was rolled back; the file was left as it is.</p>}
      {since && <SinceView since={since} path={typeof error.details.path === 'string' ? escapeName(error.details.path) : ''} />}
    </>
  );
}

function SinceView({ since, path }: { since: ReviewSince; path: string }) {
  const what =
    since.status === 'deleted'
      ? 'The file was deleted since the agent’s edit'
      : since.status === 'added'
        ? 'A new file is at this path since the agent’s edit'
        : 'Changed since the agent’s edit';
  return (
    <div className="conflict-since">
      <p className="conflict-since-head">
        {what}:{' '}
        <span aria-label={`${since.additions} added, ${since.deletions} removed lines`}>
          <span className="diff-add">+{since.additions}</span> <span className="diff-del">−{since.deletions}</span>
        </span>
      </p>
      {since.binary && <p className="change-note">Binary content: no diff is shown.</p>}
      {since.hunks.length > 0 && <DiffView hunks={since.hunks} label={`Changes to ${path || 'the file'} since the agent’s edit`} />}
      {since.truncated && <p className="change-note">Too large to show completely.</p>}
    </div>
  );
}
