import { act, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { VizCard } from './VizCard';

function post(source: Window | null, data: unknown) {
  act(() => {
    window.dispatchEvent(new MessageEvent('message', { data, source }));
  });
}

describe('VizCard', () => {
  it('loads the route in a frame sandboxed to scripts only', () => {
    document.documentElement.dataset.theme = 'dark';
    render(<VizCard sessionId="s1" file="sales.html" title="Sales by month" />);
    const frame = screen.getByTitle('Sales by month') as HTMLIFrameElement;
    expect(frame.tagName).toBe('IFRAME');
    expect(frame.getAttribute('sandbox')).toBe('allow-scripts');
    expect(frame.getAttribute('src')).toBe('/_viz/s1/sales?theme=dark');
    expect(frame).not.toHaveAttribute('allow');
    expect(screen.getByRole('figure', { name: 'Visualization: Sales by month' })).toHaveTextContent('Sales by month');
    delete document.documentElement.dataset.theme;
  });

  it("shows the frame's first script error as plain text and keeps the frame", () => {
    render(<VizCard sessionId="s1" file="sales.html" title="" />);
    const frame = screen.getByTitle('sales.html') as HTMLIFrameElement;
    expect(screen.queryByRole('alert')).toBeNull();
    post(frame.contentWindow, { type: 'pi-viz-error', message: '<img src=x onerror=alert(1)> is not defined (line 3)' });
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('Script error: <img src=x onerror=alert(1)> is not defined (line 3)');
    expect(alert.querySelector('img')).toBeNull();
    post(frame.contentWindow, { type: 'pi-viz-error', message: 'a second error' });
    expect(screen.getByRole('alert')).not.toHaveTextContent('a second error');
    expect(screen.getByTitle('sales.html')).toBe(frame);
  });

  it('bounds the error text', () => {
    render(<VizCard sessionId="s1" file="a.html" title="" />);
    const frame = screen.getByTitle('a.html') as HTMLIFrameElement;
    post(frame.contentWindow, { type: 'pi-viz-error', message: 'x'.repeat(5000) });
    expect(screen.getByRole('alert').textContent!.length).toBeLessThan(600);
  });

  it('ignores messages from any other window and malformed ones', () => {
    render(
      <>
        <VizCard sessionId="s1" file="a.html" title="A" />
        <VizCard sessionId="s1" file="b.html" title="B" />
      </>,
    );
    const a = screen.getByTitle('A') as HTMLIFrameElement;
    const b = screen.getByTitle('B') as HTMLIFrameElement;
    post(window, { type: 'pi-viz-error', message: 'from the app itself' });
    post(null, { type: 'pi-viz-error', message: 'from nowhere' });
    post(a.contentWindow, 'pi-viz-error');
    post(a.contentWindow, { type: 'pi-viz-error', message: 42 });
    expect(screen.queryByRole('alert')).toBeNull();
    post(b.contentWindow, { type: 'pi-viz-error', message: 'only B broke' });
    expect(screen.getAllByRole('alert')).toHaveLength(1);
    expect(screen.getByRole('figure', { name: 'Visualization: B' })).toHaveTextContent('only B broke');
    expect(screen.getByRole('figure', { name: 'Visualization: A' })).not.toHaveTextContent('only B broke');
  });

  it('follows the reported content height within bounds', () => {
    render(<VizCard sessionId="s1" file="a.html" title="A" />);
    const frame = screen.getByTitle('A') as HTMLIFrameElement;
    post(frame.contentWindow, { type: 'pi-viz-size', height: 512.4 });
    expect(frame.style.height).toBe('513px');
    post(frame.contentWindow, { type: 'pi-viz-size', height: 1e9 });
    expect(frame.style.height).toBe('1200px');
    post(frame.contentWindow, { type: 'pi-viz-size', height: Number.NaN });
    expect(frame.style.height).toBe('1200px');
  });
});
