import { AlertCircle, Info, X } from 'lucide-react';
import type { Toast } from '../state/toasts';

export function Toasts({ toasts, onDismiss }: { toasts: Toast[]; onDismiss: (id: number) => void }) {
  return (
    <div className="toasts" aria-live="polite">
      {toasts.map((t) => (
        <div key={t.id} role={t.kind === 'error' ? 'alert' : 'status'} className={`toast toast-${t.kind}`}>
          {t.kind === 'error' ? <AlertCircle size={16} aria-hidden="true" /> : <Info size={16} aria-hidden="true" />}
          <div className="toast-text">
            <div className="toast-message">{t.message}</div>
            {t.code && <div className="toast-code">{t.code}</div>}
          </div>
          <button type="button" className="icon-btn toast-close" aria-label="Dismiss" title="Dismiss" onClick={() => onDismiss(t.id)}>
            <X size={14} aria-hidden="true" />
          </button>
        </div>
      ))}
    </div>
  );
}
