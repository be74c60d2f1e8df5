import { AlertTriangle, Bot, Check, ChevronRight, Hourglass, Loader2, RefreshCw, Square, X } from 'lucide-react';
import { memo, useEffect, useState } from 'react';
import type { ApprovalAnswer, DelegationState, ReviewChange } from '../../bridge/types';
import { formatDuration } from '../../lib/tools';
import { useNow } from '../../lib/useNow';
import { delegateElapsed, delegateReport, isFinished } from '../../state/delegates';
import type { DelegateRun, ToolItem, TranscriptItem } from '../../state/transcript';
import { Button } from '../../ui/Button';
import { ApprovalCard } from './ApprovalCard';
import { Markdown } from './Markdown';
import { ToolBlock } from './ToolBlock';
import { Notice, Thinking, TurnStatus } from './TranscriptRows';

export const DELEGATE_STATE_LABEL: Record<DelegationState, string> = {
  running: 'running',
  waiting: 'waiting for you',
  done: 'done',
  failed: 'failed',
  stopped: 'stopped',
  interrupted: 'interrupted',
};

function StateIcon({ state }: { state: DelegationState }) {
  const p = { size: 14, 'aria-hidden': true } as const;
  switch (state) {
    case 'running':
      return <Loader2 {...p} className="spin" />;
    case 'waiting':
      return <Hourglass {...p} />;
    case 'done':
      return <Check {...p} />;
    case 'failed':
      return <X {...p} />;
    case 'stopped':
      return <Square {...p} />;
    case 'interrupted':
      return <AlertTriangle {...p} />;
  }
}

function Elapsed({ d }: { d: DelegateRun }) {
  const running = !isFinished(d);
  // Ticks only while it runs; a finished run's time is fixed.
  const now = useNow(running ? 1000 : 3_600_000);
  const ms = delegateElapsed(d, now);
  if (ms <= 0 && !running) return null;
  return <span className="tool-duration delegate-elapsed">{formatDuration(ms)}</span>;
}

export interface DelegateRowProps {
  /** The Task call. */
  item: ToolItem;
  delegate: DelegateRun;
  reviews: Record<string, ReviewChange>;
  onResolve: (requestId: string, answer: ApprovalAnswer) => Promise<void>;
  onRollback: (change: ReviewChange) => Promise<void>;
  /** Reads the delegate's stored conversation (a run this window did not see whole). */
  onLoad?: (delegationId: string) => void;
}

/** Where an isolated writer's work went: merged into the session, or kept on its branch. */
function WorktreeOutcome({ d }: { d: DelegateRun }) {
  if (d.branch === '' || d.mergeState === '') return null;
  switch (d.mergeState) {
    case 'merged':
      return <p className="tool-meta delegate-worktree">Its changes were merged into this session's files.</p>;
    case 'unchanged':
      return <p className="tool-meta delegate-worktree">It changed no files.</p>;
    default:
      return (
        <p className="tool-meta delegate-worktree" role="note">
          Its changes are kept on branch <code>{d.branch}</code>
          {d.mergeState === 'conflict' ? ': they conflict with this session\'s files.' : '.'}
        </p>
      );
  }
}

/**
 * A Task call as the live delegate run it started: the subagent, what it works on, its
 * state, time and tool count. Its approval cards show here while they wait; opened, it
 * shows its own tool calls and then its report.
 */
export const DelegateRow = memo(function DelegateRow({ item, delegate: d, reviews, onResolve, onRollback, onLoad }: DelegateRowProps) {
  const [expanded, setExpanded] = useState(false);
  const needsLoad = expanded && !d.complete && d.run.status === 'loading';
  useEffect(() => {
    if (needsLoad) onLoad?.(d.id);
  }, [needsLoad, onLoad, d.id]);

  const finished = isFinished(d);
  const report = finished ? delegateReport(d) : '';
  const items = visibleItems(d.run.items, report);
  const waiting = d.run.items.filter((it) => it.kind === 'approval' && it.outcome === null);
  const detailsId = `delegate-details-${d.id}`;
  const name = d.subagent || 'subagent';
  const description = d.description || taskDescription(item);

  return (
    <section className={`tool-block delegate-row delegate-${d.state}`} data-tool={item.tool} data-delegation-id={d.id} aria-label={`Delegate ${name}`}>
      <button type="button" className="tool-head" aria-expanded={expanded} aria-controls={detailsId} onClick={() => setExpanded((x) => !x)}>
        <ChevronRight size={13} className={expanded ? 'chevron chevron-open' : 'chevron'} aria-hidden="true" />
        <span className={`tool-status-icon delegate-state-${d.state}`}>
          <StateIcon state={d.state} />
        </span>
        <Bot size={13} aria-hidden="true" />
        <span className="tool-name delegate-name">{name}</span>
        {description && (
          <span className="tool-target" title={description}>
            {description}
          </span>
        )}
        <span className={`tool-status delegate-state delegate-state-${d.state}`} data-state={d.state}>
          {DELEGATE_STATE_LABEL[d.state]}
        </span>
        <span className="tool-duration delegate-tools">{d.toolCount === 1 ? '1 tool' : `${d.toolCount} tools`}</span>
        <Elapsed d={d} />
      </button>
      {!expanded && waiting.length > 0 && (
        <div className="delegate-cards">
          {waiting.map((it) => it.kind === 'approval' && <ApprovalCard key={it.key} item={it} onResolve={onResolve} />)}
        </div>
      )}
      {expanded && (
        <div id={detailsId} className="tool-details delegate-details">
          {d.run.status === 'loading' && !d.complete ? (
            <p className="tool-meta" role="status">
              <Loader2 size={13} aria-hidden="true" className="spin" /> Loading what the delegate did…
            </p>
          ) : d.run.status === 'error' ? (
            <p className="tool-error" role="alert">
              {d.run.loadError?.code && <code className="error-code">{d.run.loadError.code}</code>} {d.run.loadError?.message}{' '}
              <Button size="sm" icon={<RefreshCw size={13} aria-hidden="true" />} onClick={() => onLoad?.(d.id)}>
                Try again
              </Button>
            </p>
          ) : items.length === 0 && report === '' ? (
            <p className="tool-meta">{finished ? 'The delegate called no tools.' : 'No tool calls yet.'}</p>
          ) : (
            <div className="delegate-items">
              {items.map((it) => (
                <DelegateItem key={it.key} item={it} reviews={reviews} onResolve={onResolve} onRollback={onRollback} />
              ))}
            </div>
          )}
          <WorktreeOutcome d={d} />
          {d.code && (
            <p className="tool-error">
              <code className="error-code">{d.code}</code> {d.message}
            </p>
          )}
          {report !== '' && (
            <div className="delegate-report" aria-label={`Report of ${name}`} role="group">
              <h4 className="delegate-report-title">Report</h4>
              <Markdown source={report} />
            </div>
          )}
        </div>
      )}
    </section>
  );
});

/** What the row lists: everything but the prompt (the Task call holds it) and the report (shown as such). */
function visibleItems(items: TranscriptItem[], report: string): TranscriptItem[] {
  let out = items.filter((it) => it.kind !== 'prompt');
  if (report !== '') {
    let last = out.length - 1;
    while (last >= 0 && out[last]!.kind !== 'text') last--;
    const it = out[last];
    if (it && it.kind === 'text' && it.text === report && out.slice(last + 1).every((x) => x.kind !== 'tool')) {
      out = [...out.slice(0, last), ...out.slice(last + 1)];
    }
  }
  return out;
}

function taskDescription(item: ToolItem): string {
  const a = item.args as { description?: unknown } | null;
  return a && typeof a.description === 'string' ? a.description : '';
}

function DelegateItem({ item, reviews, onResolve, onRollback }: Omit<DelegateRowProps, 'delegate' | 'onLoad' | 'item'> & { item: TranscriptItem }) {
  switch (item.kind) {
    case 'prompt':
      return null;
    case 'text':
      return (
        <div className="msg-assistant delegate-text">
          <Markdown source={item.text} />
        </div>
      );
    case 'thinking':
      return <Thinking item={item} />;
    case 'tool':
      return <ToolBlock item={item} reviews={reviews} onRollback={onRollback} />;
    case 'approval':
      return <ApprovalCard item={item} onResolve={onResolve} />;
    case 'turn-status':
      return <TurnStatus item={item} />;
    case 'notice':
      return <Notice item={item} />;
  }
}
