import { AlertCircle, Info, OctagonX, RotateCw, TriangleAlert } from 'lucide-react';
import { createContext, memo, useContext } from 'react';
import { errorText } from '../../lib/errorText';
import { Button } from '../../ui/Button';
import type { NoticeItem, PromptItem, TextItem, TurnStatusItem } from '../../state/transcript';
import { VizText } from '../visualize/VizText';
import { Markdown } from './Markdown';
import { RestoreAction } from '../checkpoints/RestoreHost';
import { MessageUsageLine } from './MessageUsageLine';
import { AttachmentChips } from '../composer/Attachments';

export const PromptRow = memo(function PromptRow({ item }: { item: PromptItem }) {
  return (
    <div className="msg-user">
      <div className="msg-user-bubble selectable">
        {item.text || (item.attachments?.length ? null : <span className="muted">(prompt)</span>)}
        <AttachmentChips list={item.attachments ?? []} label="Attached files" />
      </div>
      <RestoreAction turnId={item.turnId} />
    </div>
  );
});

export const AssistantText = memo(function AssistantText({ item }: { item: TextItem }) {
  // The usage line sits beside the message, not in it: the message's text stays the model's.
  return (
    <>
      <div className={item.streaming ? 'msg-assistant is-streaming' : 'msg-assistant'}>
        <VizText text={item.text} turnId={item.turnId} streaming={item.streaming} />
      </div>
      {item.usage && <MessageUsageLine usage={item.usage} />}
    </>
  );
});

export const Thinking = memo(function Thinking({ item }: { item: TextItem }) {
  return (
    <details className="thinking">
      <summary>{item.streaming ? 'Thinking…' : 'Thinking'}</summary>
      <div className="thinking-text selectable">{item.text}</div>
    </details>
  );
});

const TURN_LABEL: Record<TurnStatusItem['state'], string> = {
  failed: 'The turn failed',
  aborted: 'Stopped',
  interrupted: 'Interrupted',
};

/** Sends a failed turn's prompt again; provided by the session around its transcript. */
export interface TurnRetry {
  canRetry: boolean;
  retry: (turnId: string) => void;
}
export const TurnRetryContext = createContext<TurnRetry | null>(null);

export const TurnStatus = memo(function TurnStatus({ item }: { item: TurnStatusItem }) {
  const retryApi = useContext(TurnRetryContext);
  const text = errorText(item.code, item.retriable);
  const Icon = item.state === 'failed' ? AlertCircle : item.state === 'aborted' ? OctagonX : TriangleAlert;
  // A stop the user asked for needs no explanation beyond its label.
  const plain = item.state === 'aborted' && item.code === 'TURN_ABORTED';
  const showRetry = item.state === 'failed' && text.retry && retryApi !== null;
  return (
    <div className={`turn-status turn-${item.state}`} role={item.state === 'failed' ? 'alert' : undefined}>
      <div className="turn-status-head">
        <Icon size={14} aria-hidden="true" />
        <strong>{item.state === 'failed' ? text.sentence : TURN_LABEL[item.state]}</strong>
      </div>
      {!plain && text.next && <p className="turn-status-hint">{text.next}</p>}
      {showRetry && (
        <div className="turn-status-actions">
          <Button size="sm" icon={<RotateCw size={13} aria-hidden="true" />} disabled={!retryApi.canRetry} onClick={() => retryApi.retry(item.turnId)}>
            Retry
          </Button>
        </div>
      )}
      {(item.message || item.code) && (
        <details className="error-details">
          <summary>Details</summary>
          <p className="selectable">
            {item.code && <code className="error-code">{item.code}</code>} {item.message}
          </p>
        </details>
      )}
    </div>
  );
});

export const Notice = memo(function Notice({ item }: { item: NoticeItem }) {
  return (
    <div className={`notice notice-${item.tone}`}>
      {item.tone === 'error' ? <AlertCircle size={13} aria-hidden="true" /> : <Info size={13} aria-hidden="true" />}
      <span>{item.text}</span>
      {item.code && <code className="error-code">{item.code}</code>}
      {item.detail && (
        <details className="notice-detail">
          <summary>Show summary</summary>
          <div className="selectable">
            <Markdown source={item.detail} />
          </div>
        </details>
      )}
    </div>
  );
});
