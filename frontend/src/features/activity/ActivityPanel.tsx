// The Activity view: a session's audit rows (what the agent did, as host-core decided
// and ran it), filterable by tool, decision and result, paged with "Load more".
import { RefreshCw } from 'lucide-react';
import { useId } from 'react';
import type { ActivityFilter, AuditRow } from '../../bridge/activity';
import { formatDateTime } from '../../lib/time';
import { formatDuration } from '../../lib/tools';
import { Button } from '../../ui/Button';
import { ANY, useActivity } from './useActivity';
import './activity.css';

/** Sentinels of the result filter; any other value is an error code. */
const RESULT_OK = 'ok';
const RESULT_FAILED = 'failed';

function Select({
  label,
  value,
  options,
  onChange,
}: {
  label: string;
  value: string;
  options: Array<{ value: string; label: string }>;
  onChange: (v: string) => void;
}) {
  const id = useId();
  // The current value stays selectable even when the summary no longer lists it.
  const all = value === '' || options.some((o) => o.value === value) ? options : [...options, { value, label: value }];
  return (
    <div className="activity-filter">
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">All</option>
        {all.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
}

function clock(ms: number): string {
  if (ms <= 0) return '';
  const d = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

export function ActivityPanel({ sessionId }: { sessionId: string }) {
  const a = useActivity(sessionId);
  const { filter, summary } = a;
  const set = (patch: Partial<ActivityFilter>) => a.setFilter({ ...filter, ...patch });
  const filtered = filter.tool !== '' || filter.decision !== '' || filter.result !== '';
  const names = (vals: string[] | undefined) => (vals ?? []).map((v) => ({ value: v, label: v }));

  return (
    <div className="activity">
      <div className="activity-filters" role="group" aria-label="Filters">
        <Select label="Tool" value={filter.tool} options={names(summary?.tools)} onChange={(tool) => set({ tool })} />
        <Select label="Decision" value={filter.decision} options={names(summary?.decisions)} onChange={(decision) => set({ decision })} />
        <Select
          label="Result"
          value={filter.result}
          options={[{ value: RESULT_OK, label: 'OK' }, { value: RESULT_FAILED, label: 'Failed (any error)' }, ...names(summary?.errorCodes)]}
          onChange={(result) => set({ result })}
        />
        {filtered && (
          <Button size="sm" variant="ghost" onClick={() => a.setFilter(ANY)}>
            Clear filters
          </Button>
        )}
      </div>

      {a.loading && <p className="muted side-panel-note" role="status">Loading the activity…</p>}
      {a.error && (
        <div className="side-panel-note activity-error" role="alert">
          <p>
            <code className="error-code">{a.error.code}</code> {a.error.message}
          </p>
          <Button size="sm" icon={<RefreshCw size={13} aria-hidden="true" />} onClick={a.rows.length > 0 ? a.loadMore : a.retry}>
            Retry
          </Button>
        </div>
      )}
      {!a.loading && !a.error && a.rows.length === 0 && (
        <p className="muted side-panel-note">{filtered ? 'No tool calls match these filters.' : 'No tool calls yet. Every call the agent makes is recorded here.'}</p>
      )}

      {a.rows.length > 0 && (
        <>
          <p className="activity-count" role="status">
            Showing {a.rows.length.toLocaleString('en-US')} of {(summary?.matching ?? a.rows.length).toLocaleString('en-US')}{' '}
            {filtered ? 'matching calls' : 'calls'}, newest first
          </p>
          <div className="activity-table-wrap" tabIndex={0} role="region" aria-label="Tool calls">
            <table className="activity-table">
              <colgroup>
                <col className="col-time" />
                <col className="col-tool" />
                <col className="col-decision" />
                <col className="col-asked" />
                <col className="col-wait" />
                <col className="col-duration" />
                <col className="col-result" />
              </colgroup>
              <thead>
                <tr>
                  <th scope="col">Time</th>
                  <th scope="col">Tool</th>
                  <th scope="col">Decision</th>
                  <th scope="col" title="Whether a card asked you">
                    Asked
                  </th>
                  <th scope="col" title="How long the card waited for you">
                    Wait
                  </th>
                  <th scope="col" title="How long the tool ran">
                    Ran
                  </th>
                  <th scope="col">Result</th>
                </tr>
              </thead>
              <tbody>
                {a.rows.map((r) => (
                  <Row key={r.id} row={r} />
                ))}
              </tbody>
            </table>
          </div>
          {a.hasMore && (
            <Button size="sm" className="activity-more" disabled={a.loadingMore} onClick={a.loadMore}>
              {a.loadingMore ? 'Loading…' : 'Load more'}
            </Button>
          )}
        </>
      )}
    </div>
  );
}

function Row({ row }: { row: AuditRow }) {
  return (
    <tr className={row.ok ? undefined : 'activity-failed'}>
      <td className="activity-time">
        <time dateTime={new Date(row.createdAt).toISOString()} title={formatDateTime(row.createdAt)}>
          {clock(row.createdAt)}
        </time>
      </td>
      <td className="activity-tool" title={row.delegate ? `${row.tool} · ${row.delegate}` : row.tool}>
        <span className="activity-tool-name">{row.tool}</span>
        {row.delegate && <span className="muted"> · {row.delegate}</span>}
        {row.argsPreview && (
          <span className="activity-args" title={row.argsPreview}>
            {row.argsPreview}
          </span>
        )}
      </td>
      <td title={row.decision || undefined}>{row.decision || <span className="muted" title="Refused before the permission check">—</span>}</td>
      <td>{row.prompted ? 'Yes' : 'No'}</td>
      <td className="activity-num">{row.prompted ? formatDuration(row.permissionWaitMs) : <span className="muted">—</span>}</td>
      <td className="activity-num" title={`tool ${formatDuration(row.durationMs)} · host ${formatDuration(row.overheadMs)} · total ${formatDuration(row.totalMs)}`}>
        {formatDuration(row.durationMs)}
      </td>
      <td className="activity-result" title={row.ok ? undefined : row.errorCode || 'failed'}>
        {row.ok ? <span className="result-ok">OK</span> : <code className="result-code">{row.errorCode || 'failed'}</code>}
      </td>
    </tr>
  );
}
