import { describe, expect, it } from 'vitest';
import { MAX_TOASTS, initialToasts, toastReducer } from './toasts';

describe('toastReducer', () => {
  it('pushes with increasing ids and dismisses by id', () => {
    let st = toastReducer(initialToasts, { type: 'push', toast: { kind: 'error', message: 'a', code: 'X' } });
    st = toastReducer(st, { type: 'push', toast: { kind: 'error', message: 'b', code: 'Y' } });
    expect(st.toasts.map((t) => t.id)).toEqual([1, 2]);
    st = toastReducer(st, { type: 'dismiss', id: 1 });
    expect(st.toasts.map((t) => t.message)).toEqual(['b']);
  });

  it('collapses an identical error repeated back to back', () => {
    let st = toastReducer(initialToasts, { type: 'push', toast: { kind: 'error', message: 'a', code: 'X' } });
    st = toastReducer(st, { type: 'push', toast: { kind: 'error', message: 'a', code: 'X' } });
    expect(st.toasts).toHaveLength(1);
  });

  it('keeps only the most recent toasts', () => {
    let st = initialToasts;
    for (let i = 0; i < MAX_TOASTS + 2; i++) st = toastReducer(st, { type: 'push', toast: { kind: 'info', message: `m${i}` } });
    expect(st.toasts).toHaveLength(MAX_TOASTS);
    expect(st.toasts.at(-1)?.message).toBe(`m${MAX_TOASTS + 1}`);
  });
});
