// The Review pane: the session's review records grouped by the message that made them
// (newest last), each with its recorded diff, counts, state and Rollback.
import { RefreshCw } from 'lucide-react';
import { formatDateTime } from '../../lib/time';
import { Button } from '../../ui/Button';
import { ChangeCard } from './ChangeCard';
import { groupWithCommands } from './groups';
import { CommandChanges } from './CommandChanges';
import type { CommandChange } from '../../bridge/checkpoints';
import type { ReviewApi } from './useReviewChanges';
import { groupTitle, promptOf, type PromptIndex } from './wording';
import type { MessageChanges } from './groups';
import './review.css';

export function ReviewPanel({ review, commands = [], onRestoreBefore, prompts }: {
  /** The prompts of the session's turns: each message is named by its prompt. */
  prompts?: PromptIndex;
  review: ReviewApi;
  /** What the session's Bash calls changed ("Changed by commands"). */
  commands?: CommandChange[];
  /** Opens the restore preview of a checkpoint (a command's "Restore files to before this command"). */
  onRestoreBefore?: (checkpointId: string) => void;
}) {
  const { changes, loaded, error } = review;
  const active = changes.filter((c) => c.state !== 'rolledBack');
  const added = active.reduce((n, c) => n + c.additions, 0);
  const removed = active.reduce((n, c) => n + c.deletions, 0);
  const rolledBack = changes.length - active.length;

  if (!loaded) return <p className="muted side-panel-note" role="status">Loading the changes…</p>;
  if (error && changes.length === 0) {
    return (
      <div className="side-panel-note" role="alert">
        <p>
          <code className="error-code">{error.code}</code> {error.message}
        </p>
        <Button size="sm" icon={<RefreshCw size={13} aria-hidden="true" />} onClick={review.reload}>
          Retry
        </Button>
      </div>
    );
  }
  if (changes.length === 0 && commands.length === 0) {
    return (
      <p className="muted side-panel-note">
        No changes yet. Files the agent writes or edits in the workspace are listed here, grouped by message, each with a Rollback.
      </p>
    );
  }
  return (
    <>
      <p className="review-summary">
        {active.length} active {active.length === 1 ? 'change' : 'changes'} ·{' '}
        <span aria-label={`${added} added, ${removed} removed lines`}>
          <span className="diff-add">+{added}</span> <span className="diff-del">−{removed}</span>
        </span>
        {rolledBack > 0 && <> · {rolledBack} rolled back</>}
      </p>
      {groupWithCommands(changes, commands).map((g) => (
        <section key={g.messageId} className="review-group" aria-labelledby={`review-group-${g.messageId}`}>
          <h3 className="review-group-title" id={`review-group-${g.messageId}`}>
            <GroupTitle group={g} prompts={prompts} />
            <time className="muted" dateTime={new Date(g.createdAt).toISOString()}>
              {formatDateTime(g.createdAt)}
            </time>
          </h3>
          {g.changes.length > 0 && (
            <ul className="change-list">
              {g.changes.map((c) => (
                <ChangeCard
                  key={c.snapshotId}
                  change={c}
                  partner={c.groupId ? changes.find((o) => o.groupId === c.groupId && o.snapshotId !== c.snapshotId) : undefined}
                  onRollback={review.rollback}
                  onStale={review.reload}
                />
              ))}
            </ul>
          )}
          {g.commands.length > 0 && <CommandChanges commands={g.commands} onRestoreBefore={onRestoreBefore} />}
        </section>
      ))}
    </>
  );
}

function GroupTitle({ group, prompts }: { group: MessageChanges; prompts: PromptIndex | undefined }) {
  const prompt = promptOf(prompts, {
    messageId: group.messageId,
    toolCallIds: group.changes.map((c) => c.toolCallId),
    turnIds: group.commands.map((c) => c.turnId),
  });
  const title = groupTitle(prompt, group.ordinal);
  return (
    <span className="review-group-prompt" title={prompt && title !== prompt ? prompt : undefined}>
      {title}
    </span>
  );
}
