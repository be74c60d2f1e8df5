import { useEffect, useState } from 'react';
import * as bridge from '../../bridge';
import type { DaySpend } from '../../bridge/types';
import { formatTokens, formatUSD } from '../../lib/cost';

/** Spend per local day and provider over the last 30 days, newest first. */
export function SpendTable() {
  const [rows, setRows] = useState<DaySpend[] | null>(null);
  const [failed, setFailed] = useState('');
  useEffect(() => {
    let live = true;
    bridge.spendPerDay().then(
      (r) => live && setRows(r),
      (e: unknown) => live && setFailed(e instanceof Error ? e.message : String(e)),
    );
    return () => {
      live = false;
    };
  }, []);
  if (failed) return <p className="muted">Could not read the spend: {failed}</p>;
  if (!rows) return null;
  return (
    <section aria-label="Spend per day">
      <h3 className="settings-subtitle">Spend, last 30 days</h3>
      {rows.length === 0 ? (
        <p className="muted">No model responses in the last 30 days.</p>
      ) : (
        <table className="spend-table">
          <thead>
            <tr>
              <th scope="col">Day</th>
              <th scope="col">Provider</th>
              <th scope="col">Responses</th>
              <th scope="col">Tokens in / out</th>
              <th scope="col">Cost</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={`${r.day}/${r.providerId}`}>
                <td>{r.day}</td>
                <td>{r.providerName || (r.providerId === '' ? `${r.model} (environment)` : `${r.model} (removed provider)`)}</td>
                <td>{r.responses}</td>
                <td>
                  {formatTokens(r.usage.inputTokens)} / {formatTokens(r.usage.outputTokens)}
                </td>
                <td title={r.unpriced > 0 ? `${r.unpriced} responses without a price are not in this sum` : undefined}>
                  {formatUSD(r.costUsd)}
                  {r.unpriced > 0 && r.costUsd !== null ? ' +' : ''}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
