import { ArrowUp } from 'lucide-react';
import { useId, useState, type FormEvent, type KeyboardEvent } from 'react';

export const NO_RUNTIME_REASON = 'Sending is not available yet — this build has no agent runtime.';

export interface ComposerProps {
  /**
   * Sends the message. When absent, the composer stays editable but sending is
   * disabled and `unavailableReason` is shown.
   */
  onSend?: (text: string) => Promise<void> | void;
  unavailableReason?: string;
  placeholder?: string;
}

export function Composer({ onSend, unavailableReason = NO_RUNTIME_REASON, placeholder = 'Ask the agent to do something…' }: ComposerProps) {
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const reasonId = useId();
  const available = onSend !== undefined;
  const canSend = available && !busy && text.trim() !== '';

  const send = async () => {
    if (!canSend || !onSend) return;
    setBusy(true);
    try {
      await onSend(text.trim());
      setText('');
    } finally {
      setBusy(false);
    }
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    // Enter sends, Shift+Enter inserts a newline; IME composition is left alone.
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      void send();
    }
  };

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    void send();
  };

  return (
    <form className="composer" onSubmit={onSubmit} aria-label="Composer">
      <div className="composer-box">
        <textarea
          className="composer-input"
          aria-label="Message"
          aria-describedby={available ? undefined : reasonId}
          placeholder={placeholder}
          rows={3}
          value={text}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={onKeyDown}
        />
        <div className="composer-bar">
          <span className="composer-hint">
            <kbd>Enter</kbd> to send · <kbd>Shift</kbd>+<kbd>Enter</kbd> for a new line
          </span>
          <button type="submit" className="btn btn-primary btn-sm composer-send" disabled={!canSend} aria-describedby={available ? undefined : reasonId}>
            <ArrowUp size={15} aria-hidden="true" />
            <span>Send</span>
          </button>
        </div>
      </div>
      {!available && (
        <p id={reasonId} className="composer-reason">
          {unavailableReason}
        </p>
      )}
    </form>
  );
}
