import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import * as runtime from '../../wailsjs/runtime/runtime';
import { EventsOn, GAP_WAIT_MS, ORDERED_EVENT, OrderedEvents } from './events';

vi.mock('../../wailsjs/runtime/runtime', () => ({ EventsOn: vi.fn() }));

const env = (seq: number, name: string, data: unknown) => ({ seq, name, data });

describe('OrderedEvents', () => {
  let o: OrderedEvents;
  let got: string[];
  beforeEach(() => {
    vi.useFakeTimers();
    o = new OrderedEvents();
    got = [];
    o.on('agent:text', (p) => got.push(`text:${String(p)}`));
    o.on('agent:message', (p) => got.push(`message:${String(p)}`));
  });
  afterEach(() => vi.useRealTimers());

  it('delivers swapped events in emission order, across event names', () => {
    o.receive(env(1, 'agent:text', 'Yes, '));
    o.receive(env(3, 'agent:text', 'created '));
    o.receive(env(4, 'agent:message', 'end'));
    expect(got).toEqual(['text:Yes, ']);
    o.receive(env(2, 'agent:text', 'I '));
    expect(got).toEqual(['text:Yes, ', 'text:I ', 'text:created ', 'message:end']);
  });

  it('starts counting at the first event seen (a page opened mid-session)', () => {
    o.receive(env(41, 'agent:text', 'a'));
    o.receive(env(42, 'agent:text', 'b'));
    expect(got).toEqual(['text:a', 'text:b']);
  });

  it('skips a gap that stays open, and still delivers the straggler', () => {
    o.receive(env(1, 'agent:text', 'a'));
    o.receive(env(3, 'agent:text', 'c'));
    vi.advanceTimersByTime(GAP_WAIT_MS - 1);
    expect(got).toEqual(['text:a']);
    vi.advanceTimersByTime(1);
    expect(got).toEqual(['text:a', 'text:c']);
    o.receive(env(2, 'agent:text', 'b'));
    expect(got).toEqual(['text:a', 'text:c', 'text:b']);
    o.receive(env(4, 'agent:text', 'd'));
    expect(got).toEqual(['text:a', 'text:c', 'text:b', 'text:d']);
  });

  it('starts over when a restarted backend numbers from 1 again', () => {
    o.receive(env(7, 'agent:text', 'old'));
    o.receive(env(1, 'agent:text', 'new1'));
    o.receive(env(2, 'agent:text', 'new2'));
    expect(got).toEqual(['text:old', 'text:new1', 'text:new2']);
  });

  it('ignores payloads that are not envelopes and stops calling removed listeners', () => {
    const off = o.on('agent:text', (p) => got.push(`second:${String(p)}`));
    o.receive({ delta: 'x' });
    o.receive(null);
    o.receive(env(1, 'agent:text', 'a'));
    off();
    o.receive(env(2, 'agent:text', 'b'));
    expect(got).toEqual(['text:a', 'second:a', 'text:b']);
  });
});

describe('EventsOn', () => {
  it('listens under the plain name (desktop) and to the numbered envelope (dev build)', () => {
    const handlers = new Map<string, (p?: unknown) => void>();
    const offs = new Map<string, ReturnType<typeof vi.fn>>();
    vi.mocked(runtime.EventsOn).mockImplementation((name, cb) => {
      handlers.set(name, cb);
      const off = vi.fn();
      offs.set(name, off);
      return off;
    });
    const cb = vi.fn();
    const unsubscribe = EventsOn('projects:changed', cb);
    handlers.get('projects:changed')!({ a: 1 });
    handlers.get(ORDERED_EVENT)!(env(1, 'projects:changed', { b: 2 }));
    handlers.get(ORDERED_EVENT)!(env(2, 'sessions:changed', { c: 3 }));
    expect(cb.mock.calls).toEqual([[{ a: 1 }], [{ b: 2 }]]);

    unsubscribe();
    expect(offs.get('projects:changed')).toHaveBeenCalled();
    handlers.get(ORDERED_EVENT)!(env(3, 'projects:changed', { d: 4 }));
    expect(cb).toHaveBeenCalledTimes(2);
  });
});
