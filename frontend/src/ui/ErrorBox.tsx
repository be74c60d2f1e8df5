// An error box for a part of the window that could not load or act: what failed, the
// next step from lib/errorText, Retry when trying again can help, and the backend's own
// words behind a collapsed Details.
import { RotateCw } from 'lucide-react';
import type { BridgeError } from '../bridge/errors';
import { errorText } from '../lib/errorText';
import { Button } from './Button';

export interface ErrorBoxProps {
  /** What could not be done, as a sentence: "The MCP servers could not be loaded." */
  what: string;
  error: BridgeError;
  onRetry?: () => void;
}

export function ErrorBox({ what, error, onRetry }: ErrorBoxProps) {
  const text = errorText(error.code);
  const known = text.sentence !== errorText('').sentence;
  return (
    <div className="inline-error" role="alert">
      <p>
        <strong>{what}</strong> {known && text.sentence}
      </p>
      {text.next && <p className="inline-error-next">{text.next}</p>}
      {onRetry && text.retry && (
        <Button size="sm" icon={<RotateCw size={13} aria-hidden="true" />} onClick={onRetry}>
          Retry
        </Button>
      )}
      <details className="error-details">
        <summary>Details</summary>
        <p className="selectable">
          <code className="error-code">{error.code}</code> {error.message}
        </p>
      </details>
    </div>
  );
}
