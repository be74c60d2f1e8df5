import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { bridgeModule as bridge, resetFakeBridge } from '../../test/fakeBridge';
import { MAX_HIGHLIGHT_CHARS } from '../../lib/highlight';
import { loadHighlighter } from '../../lib/markdown';
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

describe('Markdown code highlighting', () => {
  const code = (container: HTMLElement) => container.querySelector('pre > code')!;
  // The highlighter is loaded lazily (see Markdown.lazy.test.tsx); here it is ready.
  beforeAll(() => loadHighlighter());

  it('highlights a fenced block in a known language and keeps its text', () => {
    const src = 'func main() {\n\t// start\n\tfmt.Println("hi", 42)\n}';
    const { container } = render(<Markdown source={'```go\n' + src + '\n```'} />);
    const el = code(container);
    expect(el).toHaveClass('hljs', 'language-go');
    expect(el.textContent).toBe(src + '\n');
    expect(el.querySelector('.hljs-keyword')).toHaveTextContent('func');
    expect(el.querySelector('.hljs-comment')).toHaveTextContent('// start');
    expect(el.querySelector('.hljs-string')).toHaveTextContent('"hi"');
    expect(el.querySelector('.hljs-number')).toHaveTextContent('42');
  });

  it.each([
    ['ts', 'const x: number = 1;', 'const'],
    ['TypeScript', 'let y = 2;', 'let'],
    ['golang', 'package main', 'package'],
    ['python3', 'def f():\n    return None', 'def'],
    ['sh', 'if true; then echo ok; fi', 'if'],
    ['rust', 'fn main() {}', 'fn'],
    ['toml', '[server]\nport = 8080', ''],
  ])('understands the fence name %s', (lang, src, keyword) => {
    const { container } = render(<Markdown source={'```' + lang + '\n' + src + '\n```'} />);
    expect(code(container)).toHaveClass('hljs');
    expect(code(container).textContent).toBe(src + '\n');
    if (keyword) expect(code(container).querySelector('.hljs-keyword')).toHaveTextContent(keyword);
    else expect(code(container).querySelector('[class^="hljs-"]')).not.toBeNull();
  });

  it('leaves blocks without a known language plain', () => {
    const { container } = render(<Markdown source={'```\nfunc main() {}\n```\n\n```brainfuck\n+++.\n```'} />);
    const [plain, unknown] = Array.from(container.querySelectorAll('pre > code'));
    expect(plain).not.toHaveClass('hljs');
    expect(plain!.querySelector('span')).toBeNull();
    expect(unknown).toHaveClass('language-brainfuck');
    expect(unknown).not.toHaveClass('hljs');
    expect(unknown).toHaveTextContent('+++.');
  });

  it('stays sanitized: markup in highlighted code is text, never elements', () => {
    const w = window as unknown as Record<string, unknown>;
    const src = '<script>window.__pwned = 1</script>\n<img src=x onerror="window.__pwned = 2">\n<a href="javascript:alert(1)" onclick="x()">y</a>';
    const { container } = render(<Markdown source={'```html\n' + src + '\n```\n\n```js\nconst s = "</code></pre><img src=x onerror=alert(1)>";\n```'} />);
    expect(container.querySelector('script, img, a, [onerror], [onclick]')).toBeNull();
    const blocks = container.querySelectorAll('pre > code.hljs');
    expect(blocks).toHaveLength(2);
    expect(blocks[0]!.textContent).toBe(src + '\n');
    expect(blocks[0]!.querySelector('.hljs-tag')).not.toBeNull();
    expect(blocks[1]).toHaveTextContent('</code></pre><img src=x onerror=alert(1)>');
    expect(w.__pwned).toBeUndefined();
  });

  it('does not highlight a block larger than the limit', () => {
    const big = 'x = 1\n'.repeat(Math.ceil(MAX_HIGHLIGHT_CHARS / 6) + 1);
    const { container } = render(<Markdown source={'```python\n' + big + '```'} />);
    expect(code(container).querySelector('span')).toBeNull();
    expect(code(container).textContent!.length).toBe(big.length);
  });
});

