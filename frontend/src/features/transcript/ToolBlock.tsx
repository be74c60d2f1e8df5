import {
  AlertTriangle,
  Ban,
  Check,
  ChevronRight,
  CircleDashed,
  ExternalLink,
  FileDiff,
  Hand,
  Loader2,
  RotateCcw,
  SkipForward,
  Square,
  X,
} from 'lucide-react';
import { memo, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { toBridgeError, type BridgeError } from '../../bridge/errors';
import type { ApprovalAnswer, ReviewChange } from '../../bridge/types';
import { useNow } from '../../lib/useNow';
import { clip, formatDuration, isExternal, toolTarget } from '../../lib/tools';
import type { ApprovalItem, OutputChunk, ToolItem, ToolStatus } from '../../state/transcript';
import { DecisionDetails, DecisionSummary, decisionStatus, decisionTarget, isDecisionTool } from '../decisions/ToolDecision';
import { escapeName } from '../../lib/names';
import { useMCPToolName } from '../mcp/MCPCatalog';
import type { MCPToolName } from '../mcp/toolNames';
import { ToolImages } from './ToolImages';
import { InstructionsNote } from './InstructionsNote';
import { ApprovalCard } from './ApprovalCard';
import { approvalStory, type ApprovalStory } from './approvalStory';
import { WAITING_FOR_APPROVAL } from '../../lib/labels';

/** Characters shown of a result's text; the model saw the full (bounded) result. */
export const RESULT_VIEW_CHARS = 20_000;

const STATUS_LABEL: Record<ToolStatus, string> = {
  streaming: 'Preparing',
  pending: 'Waiting',
  running: 'Running',
  done: 'Done',
  failed: 'Failed',
  aborted: 'Stopped',
  skipped: 'Skipped',
  interrupted: 'Interrupted',
};

function StatusIcon({ status }: { status: ToolStatus }) {
  const p = { size: 14, 'aria-hidden': true } as const;
  switch (status) {
    case 'streaming':
    case 'pending':
      return <CircleDashed {...p} />;
    case 'running':
      return <Loader2 {...p} className="spin" />;
    case 'done':
      return <Check {...p} />;
    case 'failed':
      return <X {...p} />;
    case 'aborted':
      return <Square {...p} />;
    case 'skipped':
      return <SkipForward {...p} />;
    case 'interrupted':
      return <AlertTriangle {...p} />;
  }
}

/**
 * The call's own run time. A call that waited on a card counts from the answer (the wait
 * is shown apart), and shows no time while it waits or between the answer and its start.
 */
function Duration({ item, card, story }: { item: ToolItem; card: ApprovalItem | undefined; story: ApprovalStory | null }) {
  if (card && card.outcome === null) return null;
  if (story && !story.ran) return null;
  if (item.status === 'running' && card && item.waitedMs === 0) return null;
  if (item.status === 'running' && item.startedAt > 0) return <LiveDuration since={item.startedAt} />;
  if (item.startedAt > 0 && item.finishedAt >= item.startedAt) {
    return <span className="tool-duration">{formatDuration(item.finishedAt - item.startedAt)}</span>;
  }
  return null;
}

function LiveDuration({ since }: { since: number }) {
  const now = useNow(1000);
  return <span className="tool-duration">{formatDuration(Math.max(0, now - since))}</span>;
}

export interface ToolBlockProps {
  item: ToolItem;
  reviews: Record<string, ReviewChange>;
  onRollback: (change: ReviewChange) => Promise<void>;
  /** The permission card of this call, if one was shown in this window: the row holds it. */
  card?: ApprovalItem;
  onResolve?: (requestId: string, answer: ApprovalAnswer) => Promise<void>;
}

export const ToolBlock = memo(function ToolBlock({ item, reviews, onRollback, card, onResolve }: ToolBlockProps) {
  const [expanded, setExpanded] = useState(false);
  const waiting = card !== undefined && card.outcome === null;
  const story = waiting ? null : approvalStory(item, card);
  const headRef = useRef<HTMLButtonElement>(null);
  const wasWaiting = useRef(waiting);
  useLayoutEffect(() => {
    // The answered card leaves the row: its focus goes to the row, not to the page.
    if (wasWaiting.current && !waiting && (document.activeElement === null || document.activeElement === document.body)) {
      headRef.current?.focus({ preventScroll: true });
    }
    wasWaiting.current = waiting;
  }, [waiting]);
  const decision = isDecisionTool(item.tool);
  const target = (decision && decisionTarget(item)) || toolTarget(item.tool, item.args, item.argsText, item.result);
  const external = isExternal(item.result);
  const failed = item.result !== null && !item.result.ok;
  const code = item.result?.code ?? '';
  const statusLabel = waiting
    ? WAITING_FOR_APPROVAL
    : (decision && decisionStatus(item)) || (item.status === 'failed' && code ? code : STATUS_LABEL[item.status]);
  const progressChunks = item.output.filter((c) => c.stream === 'progress');
  const commandChunks = progressChunks.length === 0 ? item.output : item.output.filter((c) => c.stream !== 'progress');
  const showLive = commandChunks.length > 0 && item.result === null;
  const changes = item.result?.review ?? [];
  const detailsId = `tool-details-${item.toolCallId}`;
  const mcp = useMCPToolName(item.tool, item.mcp);
  // An MCP call's progress shows as one status line, its newest, while it runs.
  const progress = item.status === 'running' ? lastLine(progressChunks) : '';
  const images = item.result?.images ?? [];

  return (
    <div className={`tool-block tool-${item.status}${external ? ' tool-external' : ''}${waiting ? ' tool-waiting' : ''}`} data-tool={item.tool}>
      <button
        ref={headRef}
        type="button"
        className="tool-head"
        aria-expanded={expanded}
        aria-controls={detailsId}
        onClick={() => setExpanded((x) => !x)}
      >
        <ChevronRight size={13} className={expanded ? 'chevron chevron-open' : 'chevron'} aria-hidden="true" />
        <span className={`tool-status-icon status-${item.status}`}>
          {waiting ? <Hand size={14} aria-hidden="true" /> : <StatusIcon status={item.status} />}
        </span>
        {mcp ? <MCPName name={mcp} modelName={item.tool} /> : <span className="tool-name">{item.tool || 'Tool'}</span>}
        {target && (
          <span className="tool-target" title={target}>
            {target}
          </span>
        )}
        {external && (
          <span className="badge badge-external" title="This call used a path outside the session's workspace">
            <ExternalLink size={11} aria-hidden="true" /> Outside workspace
          </span>
        )}
        {story && <span className={`tool-approval tone-${story.tone}`}>{story.text}</span>}
        {story?.wait && <span className="tool-wait">{story.wait}</span>}
        <span className={`tool-status status-${item.status}${waiting ? ' tool-waiting-label' : ''}`}>{statusLabel}</span>
        <Duration item={item} card={card} story={story} />
      </button>
      {waiting && onResolve && <ApprovalCard item={card} onResolve={onResolve} inRow />}
      {progress && (
        <p className="tool-progress" role="status">
          {progress}
        </p>
      )}
      {showLive && <LiveOutput chunks={commandChunks} paused={item.outputPaused} />}
      {decision && <DecisionSummary item={item} />}
      {images.length > 0 && <ToolImages tool={mcp?.tool || item.tool} images={images} />}
      <InstructionsNote files={item.instructions} />
      {expanded && (
        <div id={detailsId} className="tool-details">
          {decision && <DecisionDetails item={item} />}
          <ToolDetails item={item} failed={failed} />
        </div>
      )}
      {changes.length > 0 && (
        <ul className="review-list" aria-label="Changes">
          {changes.map((c) => (
            <ReviewRow key={c.snapshotId} change={reviews[c.snapshotId] ?? c} onRollback={onRollback} />
          ))}
        </ul>
      )}
    </div>
  );
});

/** An MCP tool's server and own name (and title) instead of the model-facing mcp_<server>_<tool>. */
function MCPName({ name, modelName }: { name: MCPToolName; modelName: string }) {
  return (
    <span className="tool-name tool-name-mcp" title={modelName}>
      {name.server && (
        <>
          <span className="badge tool-mcp-server">{name.server}</span>{' '}
        </>
      )}
      <span>{name.tool}</span>
      {name.title && name.title !== name.tool && <span className="tool-mcp-title"> — {name.title}</span>}
    </span>
  );
}

/** The newest line of a call's live output: an MCP server's latest progress message. */
function lastLine(chunks: OutputChunk[]): string {
  for (let i = chunks.length - 1; i >= 0; i--) {
    const lines = chunks[i]!.text.split('\n').map((l) => l.trim()).filter(Boolean);
    if (lines.length > 0) return lines[lines.length - 1]!;
  }
  return '';
}

function ToolDetails({ item, failed }: { item: ToolItem; failed: boolean }) {
  const r = item.result;
  if (!r) {
    const args = item.args !== null ? JSON.stringify(item.args, null, 2) : item.argsText;
    return (
      <>
        {item.output.length > 0 && <LiveOutput chunks={item.output} paused={item.outputPaused} />}
        {args && <Bounded label="Arguments" text={args} />}
      </>
    );
  }
  const bash = r.stdout !== undefined || r.stderr !== undefined || r.exitCode !== undefined;
  return (
    <>
      {failed && (
        <p className="tool-error">
          {r.code && <code className="error-code">{r.code}</code>} {r.message || item.modelText}
        </p>
      )}
      {r.notice && <p className="tool-notice">{r.notice}</p>}
      {r.backgroundTaskId && <p className="tool-notice">Running in the background as task {r.backgroundTaskId}.</p>}
      {bash ? (
        <>
          {r.exitCode !== undefined && <p className="tool-meta">Exit status {r.exitCode}</p>}
          {r.stdout ? <Bounded label="stdout" text={r.stdout} /> : null}
          {r.stderr ? <Bounded label="stderr" text={r.stderr} tone="stderr" /> : null}
          {!r.stdout && !r.stderr && <p className="tool-meta">No output.</p>}
        </>
      ) : (
        r.content && <Bounded label="Result" text={r.content} />
      )}
      {!failed && !bash && !r.content && item.modelText && <Bounded label="Result" text={item.modelText} />}
    </>
  );
}

function Bounded({ label, text, tone }: { label: string; text: string; tone?: 'stderr' }) {
  const { text: shown, clipped } = clip(text, RESULT_VIEW_CHARS);
  return (
    <figure className="tool-output-figure">
      <figcaption className="tool-output-label">{label}</figcaption>
      <pre className={`tool-output selectable${tone ? ` tool-output-${tone}` : ''}`} tabIndex={0} aria-label={label}>
        {shown}
      </pre>
      {clipped > 0 && <p className="tool-meta">{clipped.toLocaleString('en-US')} more characters not shown.</p>}
    </figure>
  );
}

function LiveOutput({ chunks, paused }: { chunks: OutputChunk[]; paused: boolean }) {
  const ref = useRef<HTMLPreElement>(null);
  const stick = useRef(true);
  useLayoutEffect(() => {
    const el = ref.current;
    if (el && stick.current) el.scrollTop = el.scrollHeight;
  }, [chunks]);
  return (
    <>
      <pre
        ref={ref}
        className="tool-output tool-output-live selectable"
        aria-label="Live output"
        tabIndex={0}
        onScroll={(e) => {
          const el = e.currentTarget;
          stick.current = el.scrollHeight - el.scrollTop - el.clientHeight < 24;
        }}
      >
        {chunks.map((c) => (
          <span key={`${c.stream}:${c.seq}`} className={c.stream === 'stdout' ? undefined : `out-${c.stream}`}>
            {c.text}
          </span>
        ))}
      </pre>
      {paused && <p className="tool-meta">Live output paused; the rest arrives with the result.</p>}
    </>
  );
}

function ReviewRow({ change, onRollback }: { change: ReviewChange; onRollback: (c: ReviewChange) => Promise<void> }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<BridgeError | null>(null);
  const rolledBack = change.state === 'rolledBack';
  useEffect(() => {
    if (rolledBack) setError(null);
  }, [rolledBack]);
  const rollback = async () => {
    setBusy(true);
    setError(null);
    try {
      await onRollback(change);
    } catch (err) {
      setError(toBridgeError(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <li className={`review-row${rolledBack ? ' is-rolled-back' : ''}`}>
      <FileDiff size={13} aria-hidden="true" />
      <span className="review-path" title={escapeName(change.path)}>
        {escapeName(change.path)}
      </span>
      <span className="review-status">{change.status}</span>
      <span className="review-counts" aria-label={`${change.additions} added, ${change.deletions} removed lines`}>
        <span className="diff-add">+{change.additions}</span> <span className="diff-del">−{change.deletions}</span>
      </span>
      {rolledBack ? (
        <span className="review-state">Rolled back</span>
      ) : change.reversible ? (
        <button type="button" className="btn btn-ghost btn-sm" disabled={busy} onClick={() => void rollback()} aria-label={`${busy ? 'Rolling back' : 'Roll back'} ${escapeName(change.path)}`}>
          <RotateCcw size={13} aria-hidden="true" />
          <span>{busy ? 'Rolling back…' : 'Roll back'}</span>
        </button>
      ) : (
        <span className="review-state" title="Too large to keep a snapshot; restore it by hand">
          <Ban size={12} aria-hidden="true" /> Not reversible
        </span>
      )}
      {error && (
        <p className="review-error" role="alert">
          <code className="error-code">{error.code}</code>{' '}
          {error.message}
          {error.code === 'CONFLICT' && <span className="review-conflict-note"> The file changed since; nothing was rolled back.</span>}
        </p>
      )}
    </li>
  );
}
