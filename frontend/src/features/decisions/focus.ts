import { useLayoutEffect, useRef, type RefObject } from 'react';

/**
 * The user is typing in a text field that holds text: a new card must not take the focus
 * (their next Enter, meant to send, would answer it). Checked when a card arrives and
 * again at the moment the focus would move.
 */
export function typingElsewhere(): boolean {
  const el = document.activeElement;
  if (!(el instanceof HTMLTextAreaElement || el instanceof HTMLInputElement)) return false;
  return el.value.trim() !== '';
}

/**
 * Focus for a decision card: a new pending card takes the focus (unless the user is in
 * the middle of typing somewhere), so it can be answered from the keyboard; when it
 * settles and its buttons vanish, the focus moves to the outcome instead of the page.
 */
export function useCardFocus(card: RefObject<HTMLElement | null>, outcome: RefObject<HTMLElement | null>, pending: boolean) {
  const wasPending = useRef<boolean | null>(null);
  useLayoutEffect(() => {
    const root = card.current;
    const before = wasPending.current;
    wasPending.current = pending;
    if (!root) return;
    if (pending && before === null) {
      if (typingElsewhere()) return;
      // Keep the card's top in view (title, document) rather than its last control.
      root.querySelector<HTMLElement>('[data-autofocus]')?.focus({ preventScroll: true });
      root.scrollIntoView?.({ block: 'nearest' });
      return;
    }
    if (!pending && before === true) {
      const active = document.activeElement;
      if (active === null || active === document.body || root.contains(active)) outcome.current?.focus();
    }
  }, [card, outcome, pending]);
}
