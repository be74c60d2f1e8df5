// Its own file: the highlighter must not have been loaded by another test yet.
import { render, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { highlighterReady } from '../../lib/markdown';
import { Markdown } from './Markdown';

vi.mock('../../bridge', () => import('../../test/fakeBridge').then((m) => m.bridgeModule));

describe('Markdown highlighter loading', () => {
  it('shows a block plain at once, then highlighted once the highlighter has loaded', async () => {
    expect(highlighterReady()).toBe(false);
    const { container } = render(<Markdown source={'Plain prose only.'} />);
    expect(highlighterReady()).toBe(false); // prose alone never loads it

    const src = 'package main\n\nfunc main() {}';
    const view = render(<Markdown source={'```go\n' + src + '\n```'} />);
    const code = () => view.container.querySelector('pre > code')!;
    expect(code().textContent).toBe(src + '\n');
    await waitFor(() => expect(code()).toHaveClass('hljs', 'language-go'));
    expect(code().querySelector('.hljs-keyword')).toHaveTextContent('package');
    expect(code().textContent).toBe(src + '\n');
    expect(container).toHaveTextContent('Plain prose only.');
  });
});
