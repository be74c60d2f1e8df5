import { AlertCircle, Info, OctagonX, TriangleAlert } from 'lucide-react';
import { memo } from 'react';
import { MODEL_SETUP_HINT } from '../../lib/labels';
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

export function nextStep(code: string, retriable: boolean): string {
  if (code === 'MODEL_NOT_CONFIGURED') return MODEL_SETUP_HINT;
  if (code === 'TURN_INTERRUPTED') return 'PI-Desktop stopped while this turn was running. Check the files it touched, then send a new prompt to continue.';
  if (code === 'TURN_ABORTED') return 'Send a new prompt to continue.';
  if (retriable) return 'This may pass on its own: send the prompt again.';
  return '';
}

export const TurnStatus = memo(function TurnStatus({ item }: { item: TurnStatusItem }) {
  const hint = nextStep(item.code, item.retriable);
  const Icon = item.state === 'failed' ? AlertCircle : item.state === 'aborted' ? OctagonX : TriangleAlert;
  return (
    <div className={`turn-status turn-${item.state}`}>
      <div className="turn-status-head">
        <Icon size={14} aria-hidden="true" />
        <strong>{TURN_LABEL[item.state]}</strong>
        {item.code && <code className="error-code">{item.code}</code>}
      </div>
      {item.message && <p className="turn-status-message selectable">{item.message}</p>}
      {hint && hint !== item.message && <p className="turn-status-hint">{hint}</p>}
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
