import { memo, useMemo } from 'react';
import type { ApprovalAnswer } from '../../bridge/types';
import type { ApprovalItem, TranscriptState } from '../../state/transcript';
import { ApprovalCard } from './ApprovalCard';

/**
 * The approval cards delegates wait on, in the composer above the input: a delegate's
 * row may be scrolled away or closed, and a request nobody sees is a silent denial.
 * Every waiting card is listed, oldest first, each saying which delegate asks; the same
 * card is answered from here or from the delegate's row.
 */
export const DelegateApprovals = memo(function DelegateApprovals({
  state,
  onResolve,
}: {
  state: Pick<TranscriptState, 'delegates'>;
  onResolve: (requestId: string, answer: ApprovalAnswer) => Promise<void>;
}) {
  const waiting = useMemo(() => {
    const out: ApprovalItem[] = [];
    for (const d of Object.values(state.delegates)) {
      for (const it of d.run.items) if (it.kind === 'approval' && it.outcome === null) out.push(it);
    }
    return out.sort((a, b) => a.request.createdAt - b.request.createdAt);
  }, [state.delegates]);
  if (waiting.length === 0) return null;
  return (
    <div className="decision-surfaces delegate-approvals" role="region" aria-label="Delegates waiting for you">
      {waiting.length > 1 && <p className="delegate-approvals-count">{waiting.length} requests from delegates wait for an answer</p>}
      {waiting.map((it) => (
        <ApprovalCard key={it.key} item={it} onResolve={onResolve} />
      ))}
    </div>
  );
});
