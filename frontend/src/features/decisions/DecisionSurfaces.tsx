import { useCallback } from 'react';
import { useDecisions } from '../../state/useDecisions';
import './decisions.css';
import { ProposalCard } from './ProposalCard';
import { QuestionCard } from './QuestionCard';

/**
 * The Plan/Goal approval and asktool question cards of the session being viewed, shown
 * in the composer directly above the input. Background sessions show a sidebar badge
 * instead (SessionActivityContext). Renders nothing when nothing waits.
 */
export function DecisionSurfaces({ sessionId }: { sessionId: string }) {
  const d = useDecisions(sessionId);
  const { dismiss, reload } = d;
  const checkAgain = useCallback(
    (key: string) => {
      dismiss(key);
      reload();
    },
    [dismiss, reload],
  );
  if (d.state.cards.length === 0) return null;
  return (
    <div className="decision-surfaces" role="region" aria-label="Waiting for you">
      {d.state.cards.map((card) =>
        card.kind === 'question' ? (
          <QuestionCard key={card.key} card={card} onAnswer={d.answer} onDismiss={dismiss} onCheckAgain={checkAgain} />
        ) : (
          <ProposalCard key={card.key} card={card} onApprove={d.approve} onReject={d.reject} onDismiss={dismiss} onCheckAgain={checkAgain} />
        ),
      )}
    </div>
  );
}
