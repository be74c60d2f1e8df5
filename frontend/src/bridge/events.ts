// Event subscription for the bridge. In a desktop build events arrive under their own
// names, in emission order. A dev build (the one the end-to-end tests drive from a
// browser) wraps every event in one numbered "dev:event" envelope instead, because Wails'
// dev server can deliver two back-to-back events swapped; OrderedEvents puts them back in
// order before calling the same callbacks with the same payloads.
import { EventsOn as runtimeEventsOn } from '../../wailsjs/runtime/runtime';
import { EVENT } from './eventNames.gen';

export const ORDERED_EVENT = EVENT.devEvent;

/** How long a gap in the numbering may wait for the missing event before it is skipped. */
export const GAP_WAIT_MS = 250;

// The runtime's own callback type: drop-in for its EventsOn, typed payloads included.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Callback = (...data: any[]) => void;

interface Envelope {
  seq: number;
  name: string;
  data: unknown;
}

function isEnvelope(v: unknown): v is Envelope {
  const e = v as Partial<Envelope> | null;
  return typeof e === 'object' && e !== null && typeof e.seq === 'number' && typeof e.name === 'string';
}

/** Delivers numbered envelopes to listeners by name, in number order. */
export class OrderedEvents {
  private readonly listeners = new Map<string, Set<Callback>>();
  private readonly held = new Map<number, Envelope>();
  private next: number | null = null;
  private gapTimer: ReturnType<typeof setTimeout> | null = null;

  on(name: string, cb: Callback): () => void {
    let set = this.listeners.get(name);
    if (!set) this.listeners.set(name, (set = new Set()));
    set.add(cb);
    return () => {
      set.delete(cb);
    };
  }

  receive(raw: unknown): void {
    if (!isEnvelope(raw)) return;
    // The first event seen, or seq 1 (a restarted backend), sets where counting starts.
    if (this.next === null || raw.seq === 1) this.reset(raw.seq);
    if (raw.seq < this.next!) {
      // Arrived after its gap was skipped: late is better than never.
      this.deliver(raw);
      return;
    }
    this.held.set(raw.seq, raw);
    this.drain();
  }

  private reset(seq: number): void {
    this.next = seq;
    this.held.clear();
    this.clearGapTimer();
  }

  private drain(): void {
    for (let e = this.held.get(this.next!); e; e = this.held.get(this.next!)) {
      this.held.delete(e.seq);
      this.next! += 1;
      this.deliver(e);
    }
    if (this.held.size === 0) this.clearGapTimer();
    else if (!this.gapTimer) this.gapTimer = setTimeout(() => this.skipGap(), GAP_WAIT_MS);
  }

  private skipGap(): void {
    this.gapTimer = null;
    if (this.held.size === 0) return;
    this.next = Math.min(...this.held.keys());
    this.drain();
  }

  private clearGapTimer(): void {
    if (this.gapTimer) clearTimeout(this.gapTimer);
    this.gapTimer = null;
  }

  private deliver(e: Envelope): void {
    for (const cb of [...(this.listeners.get(e.name) ?? [])]) cb(e.data);
  }
}

let ordered: OrderedEvents | null = null;

/** Subscribes to a backend event by name, from either build; returns the unsubscribe. */
export function EventsOn(name: string, cb: Callback): () => void {
  if (!ordered) {
    const o = new OrderedEvents();
    runtimeEventsOn(ORDERED_EVENT, (payload?: unknown) => o.receive(payload));
    ordered = o;
  }
  const offOrdered = ordered.on(name, cb);
  const off = runtimeEventsOn(name, cb);
  return () => {
    offOrdered();
    off?.();
  };
}
