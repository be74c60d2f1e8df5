import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { bridgeModule as bridge, resetFakeBridge } from '../../test/fakeBridge';
import { Markdown } from './Markdown';

vi.mock('../../bridge', () => import('../../test/fakeBridge').then((m) => m.bridgeModule));

beforeEach(() => {
  resetFakeBridge();
});

describe('Markdown', () => {
  it('renders Markdown with monospaced code blocks', () => {
    const { container } = render(<Markdown source={'# Plan\n\n1. **Read** `main.go`\n\n```go\nfunc main() {}\n```'} />);
    expect(screen.getByRole('heading', { name: 'Plan' })).toBeInTheDocument();
    expect(screen.getByText('Read', { selector: 'strong' })).toBeInTheDocument();
    expect(container.querySelector('pre > code')).toHaveTextContent('func main() {}');
  });

  it('never renders raw HTML from model text', () => {
    const w = window as unknown as Record<string, unknown>;
    const { container } = render(
      <Markdown source={'Hi <script>window.__pwned = 1</script>\n\n<img src="x" onerror="window.__pwned = 2">\n\n<a href="https://evil.example" onclick="window.__pwned = 3">x</a>'} />,
    );
    expect(container.querySelector('script')).toBeNull();
    expect(container.querySelector('img')).toBeNull();
    expect(container.querySelector('[onerror], [onclick]')).toBeNull();
    // Shown as text, not executed.
    expect(container).toHaveTextContent('<script>window.__pwned = 1</script>');
    expect(container).toHaveTextContent('<img src="x" onerror="window.__pwned = 2">');
    expect(w.__pwned).toBeUndefined();
  });

  it('opens links in the OS browser, never in the app; unsafe links do nothing', async () => {
    const user = userEvent.setup();
    const before = window.location.href;
    render(<Markdown source={'See [the docs](https://example.com/docs) or [this](javascript:alert(1)) or ![chart](https://example.com/c.png)'} />);
    const docs = screen.getByRole('link', { name: 'the docs' });
    expect(docs).toHaveAttribute('title', 'https://example.com/docs');
    await user.click(docs);
    expect(bridge.openExternalURL).toHaveBeenCalledWith('https://example.com/docs');
    expect(window.location.href).toBe(before);

    await user.click(screen.getByText('this'));
    expect(bridge.openExternalURL).toHaveBeenCalledTimes(1);
    expect(screen.getByText('this')).not.toHaveAttribute('href');
    // Images are never loaded; they become links.
    expect(document.querySelector('img')).toBeNull();
    await user.click(screen.getByRole('link', { name: 'chart' }));
    expect(bridge.openExternalURL).toHaveBeenLastCalledWith('https://example.com/c.png');
  });
});
