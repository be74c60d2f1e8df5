// jsdom has no layout. The transcript is virtualized, so its tests need a little:
// the scroller (`.transcript`) gets a viewport height, scrollHeight from its content
// and a clamped scrollTop whose changes fire "scroll" as a browser would (after the
// write, not inside it); rows (`.transcript-row`) get a height from rowHeight; and a
// fake ResizeObserver reports a newly observed element's size once (after the current
// task, as browsers do) and every observed size again when a test calls flushResize().
// Everything else keeps jsdom's zeros.

export interface Layout {
  /** Visible height of the transcript scroller. */
  viewport: number;
  /** Height of one transcript row. */
  rowHeight: (row: HTMLElement) => number;
}

const DEFAULT_LAYOUT: Layout = { viewport: 600, rowHeight: () => 40 };
let layout: Layout = DEFAULT_LAYOUT;

/** Changes the layout for the current test (reset after each test). */
export function setLayout(next: Partial<Layout>): void {
  layout = { ...layout, ...next };
}

export function resetLayout(): void {
  layout = DEFAULT_LAYOUT;
  for (const o of observers) o.disconnect();
  observers.clear();
}

const isScroller = (el: Element): el is HTMLElement => el instanceof HTMLElement && el.classList.contains('transcript');
const isRow = (el: Element): el is HTMLElement => el instanceof HTMLElement && el.classList.contains('transcript-row');

/** Content height of a scroller: its children's explicit heights (the virtual list sets one) or row heights. */
function contentHeight(el: HTMLElement): number {
  let h = 0;
  for (const child of Array.from(el.children)) {
    if (!(child instanceof HTMLElement)) continue;
    const explicit = parseFloat(child.style.height);
    h += Number.isFinite(explicit) ? explicit : isRow(child) ? layout.rowHeight(child) : 20;
  }
  return h;
}

const scrollTops = new WeakMap<Element, number>();
const pendingScroll = new Set<HTMLElement>();

function maxScroll(el: HTMLElement): number {
  return Math.max(0, contentHeight(el) - layout.viewport);
}

function writeScrollTop(el: HTMLElement, value: number) {
  const next = Math.round(Math.min(Math.max(0, value), maxScroll(el)));
  if (next === (scrollTops.get(el) ?? 0)) return;
  scrollTops.set(el, next);
  // Browsers fire "scroll" after the write, once per frame at most.
  if (pendingScroll.size === 0) {
    queueMicrotask(() => {
      const els = [...pendingScroll];
      pendingScroll.clear();
      for (const e of els) e.dispatchEvent(new Event('scroll'));
    });
  }
  pendingScroll.add(el);
}

type Getter = (this: Element) => number;
function original(proto: object, name: string): Getter {
  let p: object | null = proto;
  while (p) {
    const d = Object.getOwnPropertyDescriptor(p, name);
    if (d?.get) return d.get as Getter;
    p = Object.getPrototypeOf(p) as object | null;
  }
  return () => 0;
}

class FakeResizeObserver {
  private targets = new Set<Element>();
  constructor(private cb: ResizeObserverCallback) {
    observers.add(this);
  }
  observe(el: Element) {
    this.targets.add(el);
    // Like a browser, report the size of a newly observed element once, after the
    // current task.
    if (this.initial.size === 0) queueMicrotask(() => this.deliverInitial());
    this.initial.add(el);
  }
  private initial = new Set<Element>();
  private deliverInitial() {
    const targets = [...this.initial].filter((t) => this.targets.has(t));
    this.initial.clear();
    this.deliver(targets);
  }
  unobserve(el: Element) {
    this.targets.delete(el);
  }
  disconnect() {
    this.targets.clear();
    observers.delete(this);
  }
  flush() {
    this.deliver([...this.targets]);
  }
  private deliver(targets: Element[]) {
    const entries = targets
      .filter((t) => t.isConnected)
      .map((target) => {
        const h = (target as HTMLElement).offsetHeight;
        const w = (target as HTMLElement).offsetWidth;
        const size = [{ blockSize: h, inlineSize: w }];
        return { target, borderBoxSize: size, contentBoxSize: size, devicePixelContentBoxSize: size, contentRect: { height: h, width: w } } as unknown as ResizeObserverEntry;
      });
    if (entries.length > 0) this.cb(entries, this as unknown as ResizeObserver);
  }
}
const observers = new Set<FakeResizeObserver>();

/** Delivers a resize observation of every observed element (call inside act()). */
export function flushResize(): void {
  for (const o of [...observers]) o.flush();
}

let installed = false;

export function installLayout(): void {
  if (installed) return;
  installed = true;
  const proto = HTMLElement.prototype;
  const clientHeight = original(proto, 'clientHeight');
  const clientWidth = original(proto, 'clientWidth');
  const scrollHeight = original(proto, 'scrollHeight');
  const offsetHeight = original(proto, 'offsetHeight');
  const offsetWidth = original(proto, 'offsetWidth');
  const scrollTop = Object.getOwnPropertyDescriptor(Element.prototype, 'scrollTop')!;
  Object.defineProperties(proto, {
    clientHeight: {
      configurable: true,
      get(this: HTMLElement) {
        return isScroller(this) ? layout.viewport : clientHeight.call(this);
      },
    },
    clientWidth: {
      configurable: true,
      get(this: HTMLElement) {
        return isScroller(this) ? 800 : clientWidth.call(this);
      },
    },
    scrollHeight: {
      configurable: true,
      get(this: HTMLElement) {
        return isScroller(this) ? Math.max(layout.viewport, contentHeight(this)) : scrollHeight.call(this);
      },
    },
    offsetHeight: {
      configurable: true,
      get(this: HTMLElement) {
        return isRow(this) ? layout.rowHeight(this) : offsetHeight.call(this);
      },
    },
    offsetWidth: {
      configurable: true,
      get(this: HTMLElement) {
        return isRow(this) ? 760 : offsetWidth.call(this);
      },
    },
    scrollTop: {
      configurable: true,
      get(this: HTMLElement) {
        return isScroller(this) ? Math.min(scrollTops.get(this) ?? 0, maxScroll(this)) : (scrollTop.get!.call(this) as number);
      },
      set(this: HTMLElement, v: number) {
        if (isScroller(this)) writeScrollTop(this, v);
        else scrollTop.set!.call(this, v);
      },
    },
  });
  proto.scrollTo = function scrollTo(this: HTMLElement, a?: ScrollToOptions | number, b?: number) {
    const top = typeof a === 'number' ? b : a?.top;
    if (top !== undefined) this.scrollTop = top;
  } as typeof proto.scrollTo;
  proto.scrollBy = function scrollBy(this: HTMLElement, a?: ScrollToOptions | number, b?: number) {
    const dy = typeof a === 'number' ? b : a?.top;
    if (dy !== undefined) this.scrollTop = this.scrollTop + dy;
  } as typeof proto.scrollBy;
  proto.scrollIntoView = function scrollIntoView() {};
  globalThis.ResizeObserver = FakeResizeObserver as unknown as typeof ResizeObserver;
}
