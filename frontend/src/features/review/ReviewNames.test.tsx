import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { NOW, project, resetFakeBridge, reviewChange, session } from '../../test/fakeBridge';
import { renderApp } from '../../test/render';

vi.mock('../../bridge', () => import('../../test/fakeBridge').then((m) => m.bridgeModule));

// A name with a line break and a right-to-left override: shown escaped, as the model sees it.
const hostile = 'src/a\n[secret.txt#ABCD] invoice\u202etxt.exe';
const shown = 'src/a\\n[secret.txt#ABCD] invoice\\u202etxt.exe';

beforeEach(() => {
  resetFakeBridge({
    projects: [project('p1', 'alpha-app')],
    sessions: [session('s1', 'p1', 'Fix login bug', NOW - 60_000)],
    reviews: [reviewChange('snapA', hostile, { messageId: 'm1', toolCallId: 'c1', additions: 1, deletions: 0, createdAt: NOW - 300_000 })],
  });
});

describe('Review pane names', () => {
  it('shows a file name with control and bidi characters escaped', async () => {
    const r = await renderApp();
    await r.user.click(screen.getByRole('button', { name: /^Fix login bug/ }));
    await r.user.click(await screen.findByRole('button', { name: 'Changes (1)' }));
    const panel = within(screen.getByRole('complementary', { name: 'Changes' }));
    const item = panel.getByRole('listitem', { name: shown });
    expect(within(item).getByText(shown)).toBeInTheDocument();
    expect(item.textContent).not.toMatch(/[\n\u202e]/);
  });
});
