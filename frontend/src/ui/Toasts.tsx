import { AlertCircle, Info, X } from 'lucide-react';
import type { Toast } from '../state/toasts';
import { Button } from './Button';

export function Toasts({ toasts, onDismiss }: { toasts: Toast[]; onDismiss: (id: number) => void }) {
  return (
    <div className="toasts" aria-live="polite">
      {toasts.map((t) => (
        <div key={t.id} role={t.kind === 'error' ? 'alert' : 'status'} className={`toast toast-${t.kind}`}>
          {t.kind === 'error' ? <AlertCircle size={16} aria-hidden="true" /> : <Info size={16} aria-hidden="true" />}
          <div className="toast-text">
            <div className="toast-message">{t.message}</div>
            {t.next && <div className="toast-next">{t.next}</div>}
            {t.action && (
              <Button
                size="sm"
                className="toast-action"
                onClick={() => {
                  // The action answers this toast: it goes, and a failure brings its own.
                  onDismiss(t.id);
                  t.action?.run();
                }}
              >
                {t.action.label}
              </Button>
            )}
            {(t.code || (t.details && t.details !== t.message)) && (
              <details className="error-details">
                <summary>Details</summary>
                <p className="selectable">
                  {t.code && <code className="toast-code">{t.code}</code>} {t.details !== t.message ? t.details : ''}
                </p>
              </details>
            )}
          </div>
          <button type="button" className="icon-btn toast-close" aria-label="Dismiss" title="Dismiss" onClick={() => onDismiss(t.id)}>
            <X size={14} aria-hidden="true" />
          </button>
        </div>
      ))}
    </div>
  );
}
