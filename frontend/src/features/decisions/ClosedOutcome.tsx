import { nextStepFor } from './outcomes';

/**
 * A card that failed closed (stale, interrupted, gone): what was not done, the code, the
 * backend's message and the next step. "Check what is waiting" re-reads the backend; it is
 * left out where nothing can be waiting any more.
 */
export function ClosedOutcome({ label, closedBy, onCheckAgain }: {
  label: string;
  closedBy: { code: string; message: string };
  onCheckAgain?: () => void;
}) {
  return (
    <div className="decision-closed">
      <p className="decision-outcome outcome-closed">
        {label} <code className="error-code">{closedBy.code}</code>
      </p>
      <p className="decision-closed-message">{closedBy.message}</p>
      <p className="decision-next">{nextStepFor(closedBy.code)}</p>
      {onCheckAgain && (
        <button type="button" className="btn btn-secondary btn-sm" onClick={onCheckAgain}>
          Check what is waiting
        </button>
      )}
    </div>
  );
}
