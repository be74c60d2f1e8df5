// The transcript's scrolling: a virtualized list with measured rows that follows
// the latest output while the user is at the bottom, and stays put once they scroll
// up (until they come back down or jump to the latest).
import { defaultRangeExtractor, useVirtualizer, type Range } from '@tanstack/react-virtual';
import { useCallback, useEffect, useLayoutEffect, useRef, useState, type FocusEvent, type KeyboardEvent, type RefObject, type UIEvent } from 'react';
import type { TranscriptItem } from '../../state/transcript';
import { typingElsewhere } from '../decisions/focus';

/** Within this many pixels of the end counts as "at the bottom". */
export const STICK_PX = 48;
/** Gap between rows, in pixels. */
export const ROW_GAP = 10;
const OVERSCAN = 6;
/** Within this many pixels of the top, earlier turns are paged in. */
export const NEAR_TOP_PX = 800;
/** How long a row opened from a search stays marked. */
export const MARK_MS = 2000;

/** A first guess of a row's height; every row is measured once it renders. */
export function estimateHeight(item: TranscriptItem): number {
  switch (item.kind) {
    case 'prompt':
      return 44 + Math.min(20, Math.floor(item.text.length / 80)) * 21;
    case 'text':
      return 24 + Math.min(80, Math.ceil(item.text.length / 90)) * 22;
    case 'thinking':
      return 24;
    case 'tool':
      return 38;
    case 'approval':
      return 190;
    case 'turn-status':
      return 78;
    case 'notice':
      return 30;
  }
}

export interface RevealOptions {
  /** Keep the focus where it is if, once the row is on screen, the user is typing. */
  unlessTyping?: boolean;
}

export interface TranscriptScroll {
  virtualizer: ReturnType<typeof useVirtualizer<HTMLDivElement, HTMLDivElement>>;
  /** False once the user scrolled up: offer "Jump to latest". */
  atBottom: boolean;
  jumpToLatest: () => void;
  /** Scrolls a row into view and focuses its first enabled button. */
  reveal: (index: number, opts?: RevealOptions) => void;
  /** Scrolls a row to the middle, focuses it and marks it for MARK_MS (a search hit opened). */
  mark: (index: number) => void;
  /** The key of the row marked now, or null. */
  markedKey: string | null;
  /** The row marked last: it stays focusable (tabIndex -1) so the focus it took stays. */
  jumpedKey: string | null;
  onScroll: (e: UIEvent<HTMLDivElement>) => void;
  onKeyDown: (e: KeyboardEvent<HTMLDivElement>) => void;
  onFocus: (e: FocusEvent<HTMLDivElement>) => void;
  onBlur: (e: FocusEvent<HTMLDivElement>) => void;
}

/**
 * onNearTop (given while earlier turns can be paged in) is called when the user scrolls
 * near the top, or when the rows do not fill the view; rows put above the first keep
 * what is on screen in place.
 */
export function useTranscriptScroll(
  ref: RefObject<HTMLDivElement | null>,
  items: TranscriptItem[],
  listed: boolean,
  running: boolean,
  onNearTop?: () => void,
): TranscriptScroll {
  const count = listed ? items.length : 0;
  const stick = useRef(true);
  const lastTop = useRef(0);
  const [atBottom, setAtBottom] = useState(true);
  // The row holding focus stays rendered, so scrolling never drops the focus.
  const focused = useRef<string | null>(null);
  const itemsRef = useRef(items);
  itemsRef.current = items;
  const [revealKey, setRevealKey] = useState<string | null>(null);

  const getItemKey = useCallback((i: number) => items[i]?.key ?? i, [items]);
  const estimateSize = useCallback((i: number) => (items[i] ? estimateHeight(items[i]) : 40), [items]);
  const rangeExtractor = useCallback((range: Range) => {
    const base = defaultRangeExtractor(range);
    const key = focused.current;
    if (key === null) return base;
    const f = itemsRef.current.findIndex((it) => it.key === key);
    if (f < 0 || f >= range.count || base.includes(f)) return base;
    return [...base, f].sort((a, b) => a - b);
  }, []);

  const virtualizer = useVirtualizer<HTMLDivElement, HTMLDivElement>({
    count,
    getScrollElement: () => ref.current,
    estimateSize,
    getItemKey,
    rangeExtractor,
    overscan: OVERSCAN,
    gap: ROW_GAP,
    useFlushSync: false,
  });

  const toBottom = useCallback(() => {
    const el = ref.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [ref]);

  // Follow the output while stuck: new rows, rows that grew, the working line.
  const total = virtualizer.getTotalSize();
  useLayoutEffect(() => {
    if (stick.current) toBottom();
  }, [total, count, running, toBottom]);

  // Rows put above the first (an older page): move the scroll by their height, so the
  // rows on screen stay put. The height is the virtualizer's own (measured where it has
  // measured rows already, estimated elsewhere; it corrects estimates as rows are
  // measured), and the move starts from where the user was: a row the virtualizer
  // measured during this render, while it still placed the view at the old offset,
  // may already have moved the scroll by its own correction.
  const firstKey = useRef<string | null>(null);
  useLayoutEffect(() => {
    const was = firstKey.current;
    firstKey.current = listed ? (items[0]?.key ?? null) : null;
    const el = ref.current;
    if (was === null || firstKey.current === was || stick.current || !el) return;
    const n = items.findIndex((it) => it.key === was);
    if (n <= 0) return;
    const from = virtualizer.getOffsetForIndex(0, 'start')?.[0];
    const to = virtualizer.getOffsetForIndex(n, 'start')?.[0];
    if (from === undefined || to === undefined) return; // no rows: nothing to keep in place
    const added = to - from;
    if (added > 0) {
      el.scrollTop = lastTop.current + added;
      lastTop.current = el.scrollTop;
      // Tell the virtualizer now (the browser's event comes later): its corrections for
      // rows measured next must start from the new offset, not the old one.
      el.dispatchEvent(new Event('scroll'));
    }
  }, [items, listed, ref, virtualizer]);

  const nearTop = useRef(onNearTop);
  nearTop.current = onNearTop;
  // Rows that do not fill the view leave nothing to scroll: page in right away.
  useLayoutEffect(() => {
    const el = ref.current;
    if (onNearTop && el && count > 0 && el.scrollHeight - el.clientHeight < NEAR_TOP_PX) onNearTop();
  }, [onNearTop, count, ref]);

  const onScroll = useCallback((e: UIEvent<HTMLDivElement>) => {
    const el = e.currentTarget;
    const top = el.scrollTop;
    if (el.scrollHeight - top - el.clientHeight <= STICK_PX) stick.current = true;
    // Only a move up is the user's doing: rows growing below never unstick.
    else if (top < lastTop.current - 1) stick.current = false;
    lastTop.current = top;
    setAtBottom(stick.current);
    if (top < NEAR_TOP_PX && !stick.current) nearTop.current?.();
  }, []);

  const jumpToLatest = useCallback(() => {
    stick.current = true;
    setAtBottom(true);
    toBottom();
  }, [toBottom]);

  const revealUnlessTyping = useRef(false);
  const reveal = useCallback(
    (index: number, opts?: RevealOptions) => {
      const key = items[index]?.key;
      if (key === undefined) return;
      stick.current = false;
      setAtBottom(false);
      virtualizer.scrollToIndex(index, { align: 'center' });
      revealUnlessTyping.current = opts?.unlessTyping ?? false;
      setRevealKey(key);
    },
    [items, virtualizer],
  );

  // Focus the revealed row once it is in the DOM: after every render on purpose, as the
  // row may reach the DOM some renders after the reveal.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  useLayoutEffect(() => {
    if (revealKey === null) return;
    const row = ref.current?.querySelector<HTMLElement>(`[data-key="${CSS.escape(revealKey)}"]`);
    if (!row) return;
    setRevealKey(null);
    // The user may have started typing since the card arrived: their Enter is theirs.
    if (revealUnlessTyping.current && typingElsewhere()) return;
    // A card's primary answer first (it marks itself), else the row's first button.
    const target = row.querySelector<HTMLElement>('[data-autofocus]:not(:disabled)') ?? row.querySelector<HTMLElement>('button:not(:disabled)') ?? row;
    target.focus();
  });

  // A marked row: scrolled to like a revealed one, but the row itself takes the focus
  // (it has no answer to give), and the mark fades after MARK_MS.
  const [markedKey, setMarkedKey] = useState<string | null>(null);
  const [markFocus, setMarkFocus] = useState<string | null>(null);
  const [jumpedKey, setJumpedKey] = useState<string | null>(null);
  const mark = useCallback(
    (index: number) => {
      const key = items[index]?.key;
      if (key === undefined) return;
      stick.current = false;
      setAtBottom(false);
      virtualizer.scrollToIndex(index, { align: 'center' });
      setMarkedKey(key);
      setJumpedKey(key);
      setMarkFocus(key);
    },
    [items, virtualizer],
  );
  useEffect(() => {
    if (markedKey === null) return;
    const t = setTimeout(() => setMarkedKey(null), MARK_MS);
    return () => clearTimeout(t);
  }, [markedKey]);
  // eslint-disable-next-line react-hooks/exhaustive-deps
  useLayoutEffect(() => {
    if (markFocus === null) return;
    const row = ref.current?.querySelector<HTMLElement>(`[data-key="${CSS.escape(markFocus)}"]`);
    if (!row) return;
    setMarkFocus(null);
    row.focus({ preventScroll: true });
  });

  const onKeyDown = useCallback(
    (e: KeyboardEvent<HTMLDivElement>) => {
      const el = ref.current;
      // Keys typed inside a row (a card's buttons, a details summary) are theirs.
      if (!el || e.target !== el || e.altKey || e.ctrlKey || e.metaKey) return;
      const page = el.clientHeight * 0.9;
      switch (e.key) {
        case 'Home':
          e.preventDefault();
          stick.current = false;
          virtualizer.scrollToOffset(0);
          break;
        case 'End':
          e.preventDefault();
          jumpToLatest();
          break;
        case 'PageUp':
          e.preventDefault();
          el.scrollTop = el.scrollTop - page;
          break;
        case 'PageDown':
        case ' ':
          e.preventDefault();
          el.scrollTop = el.scrollTop + (e.key === ' ' && e.shiftKey ? -page : page);
          break;
      }
    },
    [ref, virtualizer, jumpToLatest],
  );

  const onFocus = useCallback((e: FocusEvent<HTMLDivElement>) => {
    focused.current = (e.target as Element).closest?.('[data-key]')?.getAttribute('data-key') ?? null;
  }, []);
  const onBlur = useCallback((e: FocusEvent<HTMLDivElement>) => {
    if (!e.currentTarget.contains(e.relatedTarget as Node | null)) focused.current = null;
  }, []);

  return { virtualizer, atBottom, jumpToLatest, reveal, mark, markedKey, jumpedKey, onScroll, onKeyDown, onFocus, onBlur };
}
