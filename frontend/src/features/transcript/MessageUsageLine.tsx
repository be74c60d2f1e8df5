import { formatUSD } from '../../lib/cost';
import type { MessageUsage } from '../../state/transcript';

const count = (n: number) => n.toLocaleString('en-US');

/**
 * One model response's tokens and cost, a quiet line under its message. The input count is
 * the whole prompt; the cache figures are the parts of it read from and written to the
 * provider's prompt cache. An unknown cost reads "—", never $0.
 */
export function MessageUsageLine({ usage }: { usage: MessageUsage }) {
  const u = usage.usage;
  const cache: string[] = [];
  if (u.cacheReadTokens > 0) cache.push(`${count(u.cacheReadTokens)} from cache`);
  if (u.cacheWriteTokens > 0) cache.push(`${count(u.cacheWriteTokens)} written to cache`);
  const input = `${count(u.inputTokens)} tokens in${cache.length > 0 ? ` (${cache.join(', ')})` : ''}`;
  return (
    <div className="msg-usage" role="note" aria-label="Usage of this response">
      {input} · {count(u.outputTokens)} out ·{' '}
      <span title={usage.costUsd === null ? 'No price is known for this model' : 'Cost of this response'}>{formatUSD(usage.costUsd)}</span>
    </div>
  );
}
