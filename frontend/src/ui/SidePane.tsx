// A side pane beside the transcript (Changes, Activity, and any later pane): a labelled
// region with a title, a close button, Escape to close, and a drag handle on its left
// edge that also resizes from the keyboard. Every pane shares one remembered width, so
// switching panes never jumps; the transcript keeps a readable width and the pane
// overlays it when the window is too narrow for both.
import { X } from 'lucide-react';
import { forwardRef, useEffect, useRef, useState, type KeyboardEvent, type PointerEvent, type ReactNode, type RefObject } from 'react';
import { readNumberPref, writeNumberPref } from '../lib/prefs';
import { IconButton } from './Button';
import './sidePane.css';

export const SIDE_PANE_DEFAULT_WIDTH = 420;
export const SIDE_PANE_MIN_WIDTH = 300;
/** The transcript never gets narrower than this beside a pane. */
export const TRANSCRIPT_MIN_WIDTH = 560;
/** The pane's remembered width (lib/prefs). */
export const SIDE_PANE_WIDTH_PREF = 'sidePane.width';
/** One arrow key press; Shift moves four times as far. */
const KEY_STEP = 16;

export interface PaneLayout {
  width: number;
  min: number;
  max: number;
  /** Too narrow for both side by side: the pane lies over the transcript. */
  overlay: boolean;
}

/**
 * Where a pane of the preferred width goes in a row `available` px wide (0: not
 * measured yet). Beside the transcript it takes at most what leaves TRANSCRIPT_MIN_WIDTH;
 * when even the minimum pane does not fit, it overlays the transcript instead.
 */
export function paneLayout(preferred: number, available: number): PaneLayout {
  const min = SIDE_PANE_MIN_WIDTH;
  if (available <= 0) return { width: Math.max(min, preferred), min, max: Math.max(min, preferred), overlay: false };
  const beside = available - TRANSCRIPT_MIN_WIDTH;
  if (beside >= min) return { width: clamp(preferred, min, beside), min, max: beside, overlay: false };
  // Overlaying: leave a strip of the transcript in view so the pane reads as on top of it.
  const max = Math.max(min, available - 48);
  return { width: Math.min(clamp(preferred, min, max), available), min, max, overlay: true };
}

function clamp(n: number, lo: number, hi: number): number {
  return Math.min(Math.max(n, lo), hi);
}

export interface SidePaneProps {
  id: string;
  title: string;
  onClose: () => void;
  children: ReactNode;
  /** Controls placed in the header before the close button. */
  actions?: ReactNode;
}

/**
 * Place it as the last child of the flex row that holds the transcript: it measures
 * that row (its parent) to keep the transcript readable.
 */
export const SidePane = forwardRef<HTMLElement, SidePaneProps>(function SidePane({ id, title, onClose, children, actions }, ref) {
  const [preferred, setPreferred] = useState(() => readNumberPref(SIDE_PANE_WIDTH_PREF, SIDE_PANE_DEFAULT_WIDTH));
  const self = useRef<HTMLElement | null>(null);
  const available = useParentWidth(self);
  // Until the row is measured, the window's width stands in for it.
  const layout = paneLayout(preferred, available || (typeof window === 'undefined' ? 0 : window.innerWidth));
  const drag = useRef<{ x: number; width: number } | null>(null);

  // What the user chose is remembered as shown (clamped), so a later wider window
  // starts from the width they saw.
  const choose = (width: number) => {
    const next = clamp(Math.round(width), layout.min, layout.max);
    setPreferred(next);
    return next;
  };

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const step = e.shiftKey ? KEY_STEP * 4 : KEY_STEP;
    let next: number | null = null;
    // The handle is on the pane's left edge: Left widens the pane, Right narrows it.
    if (e.key === 'ArrowLeft') next = layout.width + step;
    else if (e.key === 'ArrowRight') next = layout.width - step;
    else if (e.key === 'Home') next = layout.min;
    else if (e.key === 'End') next = layout.max;
    if (next === null) return;
    e.preventDefault();
    writeNumberPref(SIDE_PANE_WIDTH_PREF, choose(next));
  };

  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    if (e.button !== 0) return;
    e.preventDefault();
    e.currentTarget.setPointerCapture?.(e.pointerId);
    drag.current = { x: e.clientX, width: layout.width };
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    if (drag.current) choose(drag.current.width + drag.current.x - e.clientX);
  };
  const onPointerUp = (e: PointerEvent<HTMLDivElement>) => {
    if (!drag.current) return;
    const next = choose(drag.current.width + drag.current.x - e.clientX);
    drag.current = null;
    writeNumberPref(SIDE_PANE_WIDTH_PREF, next);
  };

  return (
    <aside
      ref={(el) => {
        self.current = el;
        if (typeof ref === 'function') ref(el);
        else if (ref) ref.current = el;
      }}
      id={id}
      className={`side-panel${layout.overlay ? ' is-overlay' : ''}`}
      style={{ width: layout.width }}
      aria-label={title}
      tabIndex={-1}
      onKeyDown={(e) => {
        if (e.key === 'Escape' && !e.defaultPrevented) {
          e.preventDefault();
          onClose();
        }
      }}
    >
      <div
        className="side-pane-handle"
        role="separator"
        aria-orientation="vertical"
        aria-label={`Resize ${title}`}
        aria-controls={id}
        aria-valuenow={layout.width}
        aria-valuemin={layout.min}
        aria-valuemax={layout.max}
        tabIndex={0}
        title="Drag, or use the arrow keys, to resize"
        onKeyDown={onKeyDown}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onPointerCancel={() => (drag.current = null)}
      />
      <header className="side-panel-header">
        <h2 className="side-panel-title">{title}</h2>
        {actions}
        <IconButton label={`Close ${title}`} onClick={onClose}>
          <X size={15} aria-hidden="true" />
        </IconButton>
      </header>
      <div className="side-panel-body">{children}</div>
    </aside>
  );
});

/** The width of the element's parent, kept current with a ResizeObserver (0 until measured). */
function useParentWidth(self: RefObject<HTMLElement | null>): number {
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const parent = self.current?.parentElement;
    if (!parent || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver((entries) => {
      const w = entries[entries.length - 1]?.contentRect.width ?? 0;
      if (w > 0) setWidth(w);
    });
    observer.observe(parent);
    return () => observer.disconnect();
  }, [self]);
  return width;
}
