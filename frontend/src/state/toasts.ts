// Pure store for dismissible error/info toasts.

/** A button on a toast: Undo after a change, Retry after a failure that may pass. */
export interface ToastAction {
  label: string;
  run: () => void;
}

export interface Toast {
  id: number;
  kind: 'error' | 'info';
  /** A plain sentence: what happened. */
  message: string;
  /** What to do now (errors). */
  next?: string;
  /** Stable error code, shown with the details (errors only). */
  code?: string;
  /** The backend's own words, behind a collapsed Details. */
  details?: string;
  action?: ToastAction;
}

export interface ToastState {
  nextId: number;
  toasts: Toast[];
}

export const initialToasts: ToastState = { nextId: 1, toasts: [] };

export const MAX_TOASTS = 4;

export type ToastChange =
  | { type: 'push'; toast: Omit<Toast, 'id'> }
  | { type: 'dismiss'; id: number };

export function toastReducer(state: ToastState, action: ToastChange): ToastState {
  switch (action.type) {
    case 'push': {
      const toast = { ...action.toast, id: state.nextId };
      // The same error twice in a row is shown once.
      const last = state.toasts[state.toasts.length - 1];
      const rest = last && last.message === toast.message && last.code === toast.code
        ? state.toasts.slice(0, -1)
        : state.toasts;
      return { nextId: state.nextId + 1, toasts: [...rest, toast].slice(-MAX_TOASTS) };
    }
    case 'dismiss':
      return { ...state, toasts: state.toasts.filter((t) => t.id !== action.id) };
  }
}
