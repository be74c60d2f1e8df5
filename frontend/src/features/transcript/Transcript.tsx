import { ArrowDown, ArrowUp, Loader2, MessageSquareDashed, RefreshCw } from 'lucide-react';
import { memo, useEffect, useMemo, useRef } from 'react';
import type { ApprovalAnswer, ReviewChange } from '../../bridge/types';
import { delegatesByCall } from '../../state/delegates';
import { pendingApprovalCount, type ApprovalItem, type DelegateRun, type TranscriptItem, type TranscriptState } from '../../state/transcript';
import { Button } from '../../ui/Button';
import { ApprovalCard } from './ApprovalCard';
import { DelegateRow } from './DelegateRow';
import { MessageUsageLine } from './MessageUsageLine';
import { ToolBlock } from './ToolBlock';
import { WAITING_FOR_APPROVAL } from '../../lib/labels';
import { cardSummary } from './cardSummary';
import { typingElsewhere } from '../decisions/focus';
import { AssistantText, Notice, PromptRow, Thinking, TurnStatus } from './TranscriptRows';
import { useTranscriptScroll } from './useTranscriptScroll';

export interface TranscriptProps {
  state: TranscriptState;
  running: boolean;
  reviews: Record<string, ReviewChange>;
  onResolve: (requestId: string, answer: ApprovalAnswer) => Promise<void>;
  onRollback: (change: ReviewChange) => Promise<void>;
  onRetryLoad: () => void;
  /** Pages earlier turns in; called when the user nears the top while some are left. */
  onLoadOlder?: () => void;
  /** Reads a delegate's stored conversation when its Task row is opened. */
  onLoadDelegate?: (delegationId: string) => void;
  /** A message to open at (a search hit): earlier turns are paged in until it is loaded. */
  jumpTo?: { messageId: string; seq: number } | null;
  /** The jump ended: at the message (found), or it is not in this transcript. */
  onJumped?: (seq: number, found: boolean) => void;
}

/**
 * The conversation: a virtualized list of keyed, memoized, measured rows (only those
 * near the viewport are in the DOM), following the latest output while the user is
 * at the bottom. Scrolled up, "Jump to latest" brings them back, and a pending
 * approval card out of view is announced by a chip that scrolls to it.
 */
export function Transcript({ state, running, reviews, onResolve, onRollback, onRetryLoad, onLoadOlder, onLoadDelegate, jumpTo, onJumped }: TranscriptProps) {
  const ref = useRef<HTMLDivElement>(null);
  const listed = state.status !== 'loading' && !(state.status === 'error' && state.items.length === 0) && (state.items.length > 0 || running);
  const scroll = useTranscriptScroll(ref, state.items, listed, running, state.hasOlder && !state.loadingOlder ? onLoadOlder : undefined);
  const { virtualizer } = scroll;
  const byCall = useMemo(() => delegatesByCall(state.delegates), [state.delegates]);
  // A card and its tool row are one thing: the row holds the card of its call.
  const cards = useMemo(() => cardsByCall(state.items), [state.items]);
  // Rows holding a waiting card: the parent's cards, and Task rows whose delegate waits.
  const pending = useMemo(() => {
    const out: number[] = [];
    state.items.forEach((it, i) => {
      if (it.kind === 'approval' && it.outcome === null && !cards.rows.has(it.request.toolCallId)) out.push(i);
      else if (it.kind === 'tool' && cards.byCall[it.toolCallId]?.outcome === null) out.push(i);
      else if (it.kind === 'tool') {
        const d = byCall[it.toolCallId];
        for (let n = d ? pendingApprovalCount(d.run) : 0; n > 0; n--) out.push(i);
      }
    });
    return out;
  }, [state.items, byCall, cards]);
  const newest = newestPending(state.items);
  const newestKey = newest?.key ?? null;
  // A card that arrives takes the focus (its "Allow once"), unless the user is typing; the
  // cards already there when the transcript first shows do not.
  const seenNewest = useRef<string | null | undefined>(undefined);
  const { reveal } = scroll;
  useEffect(() => {
    const before = seenNewest.current;
    seenNewest.current = newestKey;
    if (before === undefined || newestKey === null || newestKey === before || typingElsewhere()) return;
    const card = state.items.find((it) => it.key === newestKey);
    if (card?.kind !== 'approval') return;
    const row = cards.rows.has(card.request.toolCallId)
      ? state.items.findIndex((it) => it.kind === 'tool' && it.toolCallId === card.request.toolCallId)
      : state.items.indexOf(card);
    if (row >= 0) reveal(row, { unlessTyping: true });
  }, [newestKey, state.items, cards, reveal]);

  useJumpToMessage(state, jumpTo ?? null, scroll.mark, onLoadOlder, onJumped);

  let body;
  if (state.status === 'loading') {
    body = (
      <div className="empty-state" role="status">
        <Loader2 size={20} aria-hidden="true" className="spin empty-icon" />
        <p>Loading the conversation…</p>
      </div>
    );
  } else if (state.status === 'error' && state.items.length === 0) {
    body = (
      <div className="empty-state" role="alert">
        <h2>The conversation could not be loaded</h2>
        <p>
          {state.loadError?.message} <code className="error-code">{state.loadError?.code}</code>
        </p>
        <Button size="sm" icon={<RefreshCw size={14} aria-hidden="true" />} onClick={onRetryLoad}>
          Try again
        </Button>
      </div>
    );
  } else if (!listed) {
    body = (
      <div className="empty-state">
        <MessageSquareDashed size={28} aria-hidden="true" className="empty-icon" />
        <h2>No messages yet</h2>
        <p>Describe a change, ask about the code, or plan a task. The conversation will appear here.</p>
      </div>
    );
  } else {
    body = (
      <>
        <div className="transcript-list" style={{ height: virtualizer.getTotalSize() }}>
          {virtualizer.getVirtualItems().map((v) => {
            const item = state.items[v.index]!;
            return (
              <div
                key={item.key}
                ref={virtualizer.measureElement}
                className={item.key === scroll.markedKey ? 'transcript-row is-marked' : 'transcript-row'}
                tabIndex={item.key === scroll.jumpedKey ? -1 : undefined}
                data-index={v.index}
                data-key={item.key}
                style={{ transform: `translateY(${v.start}px)` }}
              >
                <Row
                  item={item}
                  card={item.kind === 'tool' ? cards.byCall[item.toolCallId] : undefined}
                  inRow={item.kind === 'approval' && cards.rows.has(item.request.toolCallId)}
                  delegate={item.kind === 'tool' ? byCall[item.toolCallId] : undefined}
                  reviews={reviews}
                  onResolve={onResolve}
                  onRollback={onRollback}
                  onLoadDelegate={onLoadDelegate}
                />
              </div>
            );
          })}
        </div>
        {running && (
          <div className="working" role="status">
            {pending.length > 0 ? (
              WAITING_FOR_APPROVAL
            ) : (
              <>
                <Loader2 size={14} aria-hidden="true" className="spin" /> Working…
              </>
            )}
          </div>
        )}
      </>
    );
  }

  // Pending cards outside the rows on screen; the chip jumps to the nearest above, else below.
  const visible = listed ? virtualizer.range : null;
  const above = visible ? pending.filter((i) => i < visible.startIndex) : [];
  const below = visible ? pending.filter((i) => i > visible.endIndex) : [];
  const offscreen = above.length + below.length;
  const target = above.length > 0 ? above[above.length - 1]! : below[0];

  return (
    <div className="transcript-frame">
      <div
        ref={ref}
        className="transcript"
        role="log"
        aria-label="Transcript"
        aria-busy={state.status === 'loading'}
        tabIndex={0}
        onScroll={scroll.onScroll}
        onKeyDown={scroll.onKeyDown}
        onFocus={scroll.onFocus}
        onBlur={scroll.onBlur}
      >
        {body}
      </div>
      <p className="visually-hidden" aria-live="polite">
        {newest ? `${WAITING_FOR_APPROVAL}: ${announce(newest)}` : ''}
      </p>
      {listed && state.loadingOlder && (
        <div className="transcript-older" role="status">
          <Loader2 size={13} aria-hidden="true" className="spin" /> Loading earlier messages…
        </div>
      )}
      {listed && (offscreen > 0 || !scroll.atBottom) && (
        <div className="transcript-jumps">
          {offscreen > 0 && target !== undefined && (
            <button type="button" className="jump-chip jump-approval" onClick={() => scroll.reveal(target)}>
              {above.length > 0 ? <ArrowUp size={13} aria-hidden="true" /> : <ArrowDown size={13} aria-hidden="true" />}
              {offscreen === 1 ? '1 pending approval' : `${offscreen} pending approvals`}
            </button>
          )}
          {!scroll.atBottom && (
            <button type="button" className="jump-chip" onClick={scroll.jumpToLatest}>
              <ArrowDown size={13} aria-hidden="true" /> Jump to latest
            </button>
          )}
        </div>
      )}
    </div>
  );
}

/**
 * Opens the transcript at a message: once it is loaded, marks its first row; while it is
 * not, pages earlier turns in (one page at a time); gives up when none is left or a page
 * failed to load.
 */
function useJumpToMessage(
  state: TranscriptState,
  target: { messageId: string; seq: number } | null,
  mark: (index: number) => void,
  loadOlder: (() => void) | undefined,
  onJumped: ((seq: number, found: boolean) => void) | undefined,
) {
  // The page asked for this jump, by the first turn it was asked before: the same first
  // turn once loading ended means that page failed.
  const asked = useRef<{ seq: number; before: string | null } | null>(null);
  const finished = useRef<number | null>(null);
  useEffect(() => {
    if (!target || finished.current === target.seq || state.status === 'loading' || state.loadingOlder) return;
    const finish = (found: boolean) => {
      finished.current = target.seq;
      onJumped?.(target.seq, found);
    };
    const at = state.items.findIndex((it) => 'messageId' in it && it.messageId === target.messageId);
    if (at >= 0) {
      mark(at);
      finish(true);
      return;
    }
    const failed = asked.current?.seq === target.seq && asked.current.before === state.firstTurnId;
    if (state.status === 'error' || !state.hasOlder || !loadOlder || failed) {
      finish(false);
      return;
    }
    asked.current = { seq: target.seq, before: state.firstTurnId };
    loadOlder();
  }, [target, state.status, state.loadingOlder, state.items, state.hasOlder, state.firstTurnId, mark, loadOlder, onJumped]);
}

/** The cards that belong to a tool row of this transcript, and those rows' call ids. */
function cardsByCall(items: TranscriptItem[]): { byCall: Record<string, ApprovalItem>; rows: Set<string> } {
  const tools = new Set<string>();
  for (const it of items) if (it.kind === 'tool') tools.add(it.toolCallId);
  const byCall: Record<string, ApprovalItem> = {};
  const rows = new Set<string>();
  for (const it of items) {
    if (it.kind !== 'approval' || !tools.has(it.request.toolCallId)) continue;
    // A newer card for the same call (a retry) wins.
    byCall[it.request.toolCallId] = it;
    rows.add(it.request.toolCallId);
  }
  return { byCall, rows };
}

function newestPending(items: TranscriptItem[]): ApprovalItem | null {
  for (let i = items.length - 1; i >= 0; i--) {
    const it = items[i]!;
    if (it.kind === 'approval' && it.outcome === null) return it;
  }
  return null;
}

/** What the live region reads for a new card: "Write: Create notes.md". */
function announce(card: ApprovalItem): string {
  const s = cardSummary(card.request);
  const what = s ? [s.verb, s.target, s.folder && `in ${s.folder}`].filter(Boolean).join(' ') : card.request.path;
  return what ? `${card.request.tool}: ${what}` : card.request.tool;
}

interface RowProps {
  item: TranscriptItem;
  /** A tool row's permission card. */
  card: ApprovalItem | undefined;
  /** An approval item its tool row shows: nothing of its own. */
  inRow: boolean;
  /** The delegate a Task call started. */
  delegate: DelegateRun | undefined;
  reviews: Record<string, ReviewChange>;
  onResolve: TranscriptProps['onResolve'];
  onRollback: TranscriptProps['onRollback'];
  onLoadDelegate: TranscriptProps['onLoadDelegate'];
}

const Row = memo(function Row({ item, card, inRow, delegate, reviews, onResolve, onRollback, onLoadDelegate }: RowProps) {
  switch (item.kind) {
    case 'prompt':
      return <PromptRow item={item} />;
    case 'text':
      return <AssistantText item={item} />;
    case 'thinking':
      return <Thinking item={item} />;
    case 'tool': {
      const block = delegate ? (
        <DelegateRow item={item} delegate={delegate} reviews={reviews} onResolve={onResolve} onRollback={onRollback} onLoad={onLoadDelegate} />
      ) : (
        <ToolBlock item={item} reviews={reviews} onRollback={onRollback} card={card} onResolve={onResolve} />
      );
      // A response without text shows its usage under its last call.
      return item.usage ? (
        <>
          {block}
          <MessageUsageLine usage={item.usage} />
        </>
      ) : (
        block
      );
    }
    case 'approval':
      return inRow ? null : <ApprovalCard item={item} onResolve={onResolve} />;
    case 'turn-status':
      return <TurnStatus item={item} />;
    case 'notice':
      return <Notice item={item} />;
  }
});
