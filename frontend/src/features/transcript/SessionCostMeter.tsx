import { useEffect, useState } from 'react';
import * as bridge from '../../bridge';
import type { SessionCost } from '../../bridge/types';
import { contextShare, formatTokens, formatUSD } from '../../lib/cost';
import { useEventRouter } from '../../state/LiveData';

/**
 * The session header's meter: the context the last request used (tokens and share of the
 * model's window) and what the session cost so far. Re-read whenever a model response ends.
 */
export function SessionCostMeter({ sessionId }: { sessionId: string }) {
  const [cost, setCost] = useState<SessionCost | null>(null);
  const router = useEventRouter();
  useEffect(() => {
    let live = true;
    const load = () => {
      bridge.sessionCost(sessionId).then(
        (c) => {
          if (live) setCost(c);
        },
        () => {}, // the meter is a hint; the transcript reports failures
      );
    };
    load();
    // Through the app's one subscription to the bridge (state/sessionEvents).
    const off = router.on('agent', sessionId, (e) => {
      if (e.type === 'message' && e.kind !== 'prompt' && e.state !== 'streaming') load();
    });
    return () => {
      live = false;
      off();
    };
  }, [router, sessionId]);
  if (!cost) return null;
  const u = cost.usage;
  const share = contextShare(u.contextTokens, cost.contextWindow);
  const context =
    share === null ? `${formatTokens(u.contextTokens)} tokens` : `${formatTokens(u.contextTokens)} / ${formatTokens(cost.contextWindow)} (${share}%)`;
  const unpriced = u.unpriced > 0 && u.costUsd !== null ? ` (${u.unpriced} responses without a price left out)` : '';
  const cached = u.usage.inputTokens > 0 ? Math.round((u.usage.cacheReadTokens * 100) / u.usage.inputTokens) : 0;
  return (
    <div className="session-cost" role="status" aria-label="Context and cost">
      <span title="Tokens of the last request's prompt against the model's context window">Context {context}</span>
      <span
        title={`${u.responses} model responses: ${u.usage.inputTokens} tokens in (${cached}% from cache), ${u.usage.outputTokens} out${unpriced}. "—" means the model has no known price.`}
      >
        Cost {formatUSD(u.costUsd)}
      </span>
    </div>
  );
}
