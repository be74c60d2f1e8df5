// A small accessible popup menu (role=menu / menuitem) rendered in a portal at a fixed
// point: under a trigger button or at the pointer for a context menu.
import {
  useCallback,
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
  type KeyboardEvent,
  type MouseEvent as ReactMouseEvent,
  type ReactNode,
  type RefObject,
} from 'react';
import { createPortal } from 'react-dom';

export interface MenuItem {
  label: string;
  icon?: ReactNode;
  danger?: boolean;
  /** Set for a choice among options: the item becomes a menuitemradio. */
  checked?: boolean;
  /** Secondary line under the label. */
  description?: string;
  /** The keys that run the same command anywhere (from the shortcut table), shown at the end. */
  keys?: MenuKeys;
  onSelect: () => void;
}

export interface MenuKeys {
  /** As printed: "Ctrl+Shift+G", "⌘N". */
  label: string;
  /** For aria-keyshortcuts: "Control+Shift+G". */
  aria: string;
}

const ITEM_SELECTOR = '[role="menuitem"], [role="menuitemradio"]';

export interface MenuPosition {
  x: number;
  y: number;
  /** The trigger's top edge: when the menu does not fit below y it opens above this line, so it never covers its trigger. */
  flipAbove?: number;
}

type Placement = 'above' | 'below' | 'point';

export interface MenuProps {
  label: string;
  items: MenuItem[];
  position: MenuPosition;
  onClose: (opts: { restoreFocus: boolean }) => void;
  /** Pointer presses on this element (the trigger) do not count as outside clicks. */
  anchorRef?: RefObject<HTMLElement | null>;
}

export function Menu({ label, items, position, onClose, anchorRef }: MenuProps) {
  const ref = useRef<HTMLDivElement>(null);
  const idBase = useId();
  const [pos, setPos] = useState<{ x: number; y: number; placement: Placement }>({ ...position, placement: 'point' });

  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const r = el.getBoundingClientRect();
    const x = Math.max(4, Math.min(position.x, window.innerWidth - r.width - 4));
    const clampedY = Math.max(4, Math.min(position.y, window.innerHeight - r.height - 4));
    const flip = position.flipAbove;
    const roomBelow = window.innerHeight - 4 - position.y;
    if (flip === undefined) {
      setPos({ x, y: clampedY, placement: 'point' });
    } else if (r.height <= roomBelow || roomBelow >= flip - 4) {
      setPos({ x, y: clampedY, placement: 'below' });
    } else {
      // Above the trigger (more room there); a menu too tall even for that keeps its top on screen.
      setPos({ x, y: Math.max(4, flip - r.height), placement: 'above' });
    }
    (el.querySelector<HTMLElement>('[aria-checked="true"]') ?? el.querySelector<HTMLElement>(ITEM_SELECTOR))?.focus();
  }, [position]);

  useEffect(() => {
    const onPointer = (e: Event) => {
      const t = e.target as Node;
      if (anchorRef?.current?.contains(t) && e.type !== 'contextmenu') return;
      if (ref.current && !ref.current.contains(t)) onClose({ restoreFocus: false });
    };
    const onBlurWindow = () => onClose({ restoreFocus: false });
    document.addEventListener('pointerdown', onPointer, true);
    document.addEventListener('contextmenu', onPointer, true);
    window.addEventListener('blur', onBlurWindow);
    window.addEventListener('resize', onBlurWindow);
    return () => {
      document.removeEventListener('pointerdown', onPointer, true);
      document.removeEventListener('contextmenu', onPointer, true);
      window.removeEventListener('blur', onBlurWindow);
      window.removeEventListener('resize', onBlurWindow);
    };
  }, [onClose, anchorRef]);

  const onKeyDown = (e: KeyboardEvent) => {
    const els = Array.from(ref.current?.querySelectorAll<HTMLElement>(ITEM_SELECTOR) ?? []);
    const i = els.indexOf(document.activeElement as HTMLElement);
    const focusAt = (n: number) => els[(n + els.length) % els.length]?.focus();
    switch (e.key) {
      case 'ArrowDown':
        e.preventDefault();
        focusAt(i + 1);
        break;
      case 'ArrowUp':
        e.preventDefault();
        focusAt(i - 1);
        break;
      case 'Home':
        e.preventDefault();
        focusAt(0);
        break;
      case 'End':
        e.preventDefault();
        focusAt(els.length - 1);
        break;
      case 'Escape':
        e.preventDefault();
        e.stopPropagation();
        onClose({ restoreFocus: true });
        break;
      case 'Tab':
        e.preventDefault();
        onClose({ restoreFocus: true });
        break;
    }
  };

  return createPortal(
    <div
      ref={ref}
      role="menu"
      aria-label={label}
      className={pos.placement === 'point' ? 'menu' : `menu menu-${pos.placement}`}
      style={{ left: pos.x, top: pos.y }}
      onKeyDown={onKeyDown}
    >
      {items.map((item, i) => (
        <button
          key={item.label}
          type="button"
          role={item.checked === undefined ? 'menuitem' : 'menuitemradio'}
          aria-checked={item.checked}
          aria-describedby={item.description ? `${idBase}-${i}` : undefined}
          aria-keyshortcuts={item.keys?.aria}
          tabIndex={-1}
          className={['menu-item', item.danger && 'menu-item-danger', item.description && 'menu-item-described'].filter(Boolean).join(' ')}
          onClick={() => {
            onClose({ restoreFocus: false });
            item.onSelect();
          }}
        >
          {item.icon}
          {item.description ? (
            <span className="menu-item-text">
              <span>{item.label}</span>
              <span id={`${idBase}-${i}`} className="menu-item-description" aria-hidden="true">
                {item.description}
              </span>
            </span>
          ) : (
            <span>{item.label}</span>
          )}
          {item.keys && (
            <kbd className="menu-item-keys" aria-hidden="true">
              {item.keys.label}
            </kbd>
          )}
        </button>
      ))}
    </div>,
    document.body,
  );
}

/**
 * State for a menu opened from a trigger button or a right-click. Returns props for the
 * trigger and a function rendering the menu (or nothing when closed).
 */
export function useMenu(label: string, items: MenuItem[]) {
  const [position, setPosition] = useState<MenuPosition | null>(null);
  const triggerRef = useRef<HTMLButtonElement>(null);

  const close = useCallback(({ restoreFocus }: { restoreFocus: boolean }) => {
    setPosition(null);
    if (restoreFocus) triggerRef.current?.focus();
  }, []);

  const openAtTrigger = () => {
    const r = triggerRef.current?.getBoundingClientRect();
    setPosition(r ? { x: r.left, y: r.bottom + 4, flipAbove: r.top - 4 } : { x: 0, y: 0 });
  };

  const onContextMenu = (e: ReactMouseEvent) => {
    e.preventDefault();
    setPosition({ x: e.clientX, y: e.clientY });
  };

  const triggerProps = {
    ref: triggerRef,
    'aria-haspopup': 'menu' as const,
    'aria-expanded': position !== null,
    onClick: (e: ReactMouseEvent) => {
      e.stopPropagation();
      if (position) setPosition(null);
      else openAtTrigger();
    },
  };

  const menu = position ? <Menu label={label} items={items} position={position} onClose={close} anchorRef={triggerRef} /> : null;
  return { open: position !== null, triggerProps, onContextMenu, menu };
}
