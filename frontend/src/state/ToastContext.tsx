import { createContext, useCallback, useContext, useMemo, useReducer, type ReactNode } from 'react';
import { toBridgeError } from '../bridge/errors';
import { errorTextFor } from '../lib/errorText';
import { initialToasts, toastReducer, type Toast, type ToastAction } from './toasts';

interface ToastApi {
  toasts: Toast[];
  /**
   * Shows any failure (normalized to a BridgeError) in words for people (lib/errorText),
   * with the raw message as details. retry is offered only when the code says trying
   * again can help.
   */
  reportError: (err: unknown, retry?: () => void) => void;
  /** An info toast; action is e.g. the Undo of a change just saved. */
  notify: (message: string, action?: ToastAction) => void;
  dismiss: (id: number) => void;
}

const ToastContext = createContext<ToastApi | null>(null);

export function ToastProvider({ children }: { children: ReactNode }) {
  const [state, dispatch] = useReducer(toastReducer, initialToasts);
  const reportError = useCallback((err: unknown, retry?: () => void) => {
    const e = toBridgeError(err);
    const text = errorTextFor(e.code, e.message);
    dispatch({
      type: 'push',
      toast: {
        kind: 'error',
        message: text.sentence,
        next: text.next || undefined,
        code: e.code,
        details: e.message,
        action: retry && text.retry ? { label: 'Retry', run: retry } : undefined,
      },
    });
  }, []);
  const notify = useCallback((message: string, action?: ToastAction) => {
    dispatch({ type: 'push', toast: { kind: 'info', message, action } });
  }, []);
  const dismiss = useCallback((id: number) => dispatch({ type: 'dismiss', id }), []);
  const api = useMemo(
    () => ({ toasts: state.toasts, reportError, notify, dismiss }),
    [state.toasts, reportError, notify, dismiss],
  );
  return <ToastContext.Provider value={api}>{children}</ToastContext.Provider>;
}

export function useToasts(): ToastApi {
  const ctx = useContext(ToastContext);
  if (!ctx) throw new Error('useToasts outside ToastProvider');
  return ctx;
}
