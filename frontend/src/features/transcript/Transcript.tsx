import { Loader2, MessageSquareDashed, RefreshCw } from 'lucide-react';
import { memo, useLayoutEffect, useRef } from 'react';
import type { ApprovalAnswer, ReviewChange } from '../../bridge/types';
import type { TranscriptItem, TranscriptState } from '../../state/transcript';
import { Button } from '../../ui/Button';
import { ApprovalCard } from './ApprovalCard';
import { ToolBlock } from './ToolBlock';
import { AssistantText, Notice, PromptRow, Thinking, TurnStatus } from './TranscriptRows';

export interface TranscriptProps {
  state: TranscriptState;
  running: boolean;
  reviews: Record<string, ReviewChange>;
  onResolve: (requestId: string, answer: ApprovalAnswer) => Promise<void>;
  onRollback: (change: ReviewChange) => Promise<void>;
  onRetryLoad: () => void;
}

/** The conversation: keyed, memoized rows; sticks to the bottom while the user is there. */
export function Transcript({ state, running, reviews, onResolve, onRollback, onRetryLoad }: TranscriptProps) {
  const ref = useRef<HTMLDivElement>(null);
  const stick = useRef(true);
  useLayoutEffect(() => {
    const el = ref.current;
    if (el && stick.current) el.scrollTop = el.scrollHeight;
  }, [state.items, running]);

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
  } else if (state.items.length === 0 && !running) {
    body = (
      <div className="empty-state">
        <MessageSquareDashed size={28} aria-hidden="true" className="empty-icon" />
        <h2>No messages yet</h2>
        <p>Describe a change, ask about the code, or plan a task. The conversation will appear here.</p>
      </div>
    );
  } else {
    body = (
      <div className="transcript-items">
        {state.items.map((item) => (
          <Row key={item.key} item={item} reviews={reviews} onResolve={onResolve} onRollback={onRollback} />
        ))}
        {running && (
          <div className="working" role="status">
            <Loader2 size={14} aria-hidden="true" className="spin" /> Working…
          </div>
        )}
      </div>
    );
  }

  return (
    <div
      ref={ref}
      className="transcript"
      role="log"
      aria-label="Transcript"
      aria-busy={state.status === 'loading'}
      onScroll={(e) => {
        const el = e.currentTarget;
        stick.current = el.scrollHeight - el.scrollTop - el.clientHeight < 48;
      }}
    >
      {body}
    </div>
  );
}

interface RowProps {
  item: TranscriptItem;
  reviews: Record<string, ReviewChange>;
  onResolve: TranscriptProps['onResolve'];
  onRollback: TranscriptProps['onRollback'];
}

const Row = memo(function Row({ item, reviews, onResolve, onRollback }: RowProps) {
  switch (item.kind) {
    case 'prompt':
      return <PromptRow item={item} />;
    case 'text':
      return <AssistantText item={item} />;
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
});
