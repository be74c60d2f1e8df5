// The scripts the backend shell page preloads (backend/viz/assets), run in jsdom:
// the reporter posts only the first uncaught error and the height to its parent,
// and the chart helpers draw into the element they are given.
import { afterEach, describe, expect, it, vi } from 'vitest';
import d3Source from '../../../../backend/viz/assets/d3-7.9.2.min.js?raw';
import guestSource from '../../../../backend/viz/assets/guest.js?raw';
import helpersSource from '../../../../backend/viz/assets/helpers.js?raw';

type FrameWindow = Window & typeof globalThis & { eval(src: string): unknown; viz: Record<string, (...args: unknown[]) => unknown> };

function frame(body: string, before?: (w: FrameWindow) => void): FrameWindow {
  const iframe = document.createElement('iframe');
  document.body.append(iframe);
  const w = iframe.contentWindow as FrameWindow;
  w.document.body.innerHTML = body;
  before?.(w);
  w.eval(guestSource);
  w.eval(d3Source);
  w.eval(helpersSource);
  return w;
}

afterEach(() => {
  document.body.innerHTML = '';
});

describe('chart helpers', () => {
  it('draw bars, lines and points into the named element', () => {
    const w = frame('<div id="bars"></div><div id="lines"></div><div id="points"></div>');
    w.viz.bar('bars', [{ label: 'a', value: 3 }, { label: 'b', value: -1 }, { label: 'c', value: 5 }]);
    expect(w.document.querySelectorAll('#bars svg rect')).toHaveLength(3);
    expect(w.document.querySelector('#bars rect title')?.textContent).toBe('a: 3');

    w.viz.chart('lines', {
      type: 'line',
      series: 'team',
      data: [
        { x: 1, y: 2, team: 'A' },
        { x: 2, y: 3, team: 'A' },
        { x: 1, y: 1, team: 'B' },
        { x: 2, y: 4, team: 'B' },
      ],
    });
    expect(w.document.querySelectorAll('#lines path[d]').length).toBeGreaterThanOrEqual(2);

    w.viz.scatter('points', [{ x: 1, y: 2, kind: 'p' }, { x: 3, y: 4, kind: 'q' }], { color: 'kind', title: 'Points' });
    expect(w.document.querySelectorAll('#points circle')).toHaveLength(2);
    expect(w.document.querySelector('#points svg')?.textContent).toContain('Points');
  });

  it('render hands over a D3 selection; a wrong id throws with the id', () => {
    const w = frame('<div id="box"></div>');
    w.viz.render('box', (sel: { append(n: string): unknown }) => sel.append('p'));
    expect(w.document.querySelectorAll('#box p')).toHaveLength(1);
    expect(() => w.viz.bar('nope', [])).toThrow('viz: no element with id "nope"');
    expect(() => w.viz.chart('box', { type: 'pie', data: [] })).toThrow('unknown type "pie"');
    expect(Object.isFrozen(w.viz)).toBe(true);
  });
});

// The frame's parent is jsdom's own window, not the test global: spy there.
function spyParent(w: FrameWindow) {
  return vi.spyOn(w.parent, 'postMessage').mockImplementation(() => {});
}

describe('error reporter', () => {
  it('posts the first uncaught error to the parent, once', () => {
    let posted!: ReturnType<typeof spyParent>;
    const w = frame('<div id="a"></div>', (f) => (posted = spyParent(f)));
    w.dispatchEvent(new w.ErrorEvent('error', { message: 'ReferenceError: dat is not defined', lineno: 7 }));
    w.dispatchEvent(new w.ErrorEvent('error', { message: 'second' }));
    const errors = posted.mock.calls.filter(([d]) => (d as { type: string }).type === 'pi-viz-error');
    expect(errors).toEqual([[{ type: 'pi-viz-error', message: 'ReferenceError: dat is not defined (line 7)' }, '*']]);
  });

  it("names the fragment's line, not the page's", () => {
    let posted!: ReturnType<typeof spyParent>;
    const w = frame('<div id="a"></div>', (f) => {
      f.document.documentElement.setAttribute('data-fragment-line', '200');
      posted = spyParent(f);
    });
    w.dispatchEvent(new w.ErrorEvent('error', { message: 'TypeError: x is null', lineno: 203 }));
    expect(posted.mock.calls[0][0]).toEqual({ type: 'pi-viz-error', message: 'TypeError: x is null (line 3)' });

    const v = frame('<div id="a"></div>', (f) => {
      f.document.documentElement.setAttribute('data-fragment-line', '200');
      posted = spyParent(f);
    });
    v.dispatchEvent(new v.ErrorEvent('error', { message: 'viz: no element with id "b"', lineno: 150 }));
    expect(posted.mock.lastCall?.[0]).toEqual({ type: 'pi-viz-error', message: 'viz: no element with id "b"' });
  });

  it('ignores a failed resource load, which is not a script error', () => {
    let posted!: ReturnType<typeof spyParent>;
    const w = frame('<img id="i">', (f) => (posted = spyParent(f)));
    w.document.getElementById('i')!.dispatchEvent(new w.Event('error'));
    expect(posted.mock.calls.filter(([d]) => (d as { type: string }).type === 'pi-viz-error')).toEqual([]);
  });
});

describe('size reporter', () => {
  it('posts the height of the content, not of the frame', () => {
    let posted!: ReturnType<typeof spyParent>;
    const w = frame('<div id="chart"></div>', (f) => {
      // jsdom has no layout: a 360 px frame around 136 px of content.
      Object.defineProperty(f.document.documentElement, 'scrollHeight', { configurable: true, value: 360 });
      Object.defineProperty(f.document.body, 'scrollHeight', { configurable: true, value: 136 });
      posted = spyParent(f);
    });
    w.dispatchEvent(new w.Event('load'));
    const sizes = posted.mock.calls.filter(([d]) => (d as { type: string }).type === 'pi-viz-size');
    expect(sizes).toEqual([[{ type: 'pi-viz-size', height: 136 }, '*']]);
  });
});
