import { createContext, useCallback, useContext, useMemo, useReducer, type ReactNode } from 'react';
import { toBridgeError } from '../bridge/errors';
import { initialToasts, toastReducer, type Toast } from './toasts';

interface ToastApi {
  toasts: Toast[];
  /** Shows any failure (normalized to a BridgeError) as a dismissible toast. */
  reportError: (err: unknown) => void;
  notify: (message: string) => void;
  dismiss: (id: number) => void;
}

const ToastContext = createContext<ToastApi | null>(null);

export function ToastProvider({ children }: { children: ReactNode }) {
  const [state, dispatch] = useReducer(toastReducer, initialToasts);
  const reportError = useCallback((err: unknown) => {
    const e = toBridgeError(err);
    dispatch({ type: 'push', toast: { kind: 'error', message: e.message, code: e.code } });
  }, []);
  const notify = useCallback((message: string) => {
    dispatch({ type: 'push', toast: { kind: 'info', message } });
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
