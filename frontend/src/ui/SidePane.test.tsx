import { act, fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { readNumberPref, writeNumberPref } from '../lib/prefs';
import { flushResize } from '../test/layout';
import {
  SIDE_PANE_DEFAULT_WIDTH,
  SIDE_PANE_MIN_WIDTH,
  SIDE_PANE_WIDTH_PREF,
  SidePane,
  TRANSCRIPT_MIN_WIDTH,
  paneLayout,
} from './SidePane';

afterEach(() => localStorage.clear());

describe('paneLayout', () => {
  it.each([
    // name, preferred, available, width, overlay
    ['unmeasured keeps the preference', 420, 0, 420, false],
    ['room for both', 420, 1280, 420, false],
    ['too wide a preference leaves the transcript its minimum', 900, 1100, 1100 - TRANSCRIPT_MIN_WIDTH, false],
    ['too narrow a preference is raised to the minimum', 100, 1280, SIDE_PANE_MIN_WIDTH, false],
    ['exactly room for the minimum pane', 500, TRANSCRIPT_MIN_WIDTH + SIDE_PANE_MIN_WIDTH, SIDE_PANE_MIN_WIDTH, false],
    ['narrower than both: overlays', 420, 700, 420, true],
    ['very narrow: overlays at the minimum', 420, 320, SIDE_PANE_MIN_WIDTH, true],
  ])('%s', (_name, preferred, available, width, overlay) => {
    const l = paneLayout(preferred, available);
    expect(l.width).toBe(width);
    expect(l.overlay).toBe(overlay);
    if (!overlay && available > 0) expect(available - l.width).toBeGreaterThanOrEqual(TRANSCRIPT_MIN_WIDTH);
  });
});

function renderPane(onClose = vi.fn()) {
  const user = userEvent.setup();
  render(
    <div>
      <button type="button">before</button>
      <SidePane id="pane" title="Changes" onClose={onClose}>
        <p>body</p>
      </SidePane>
    </div>,
  );
  const pane = screen.getByRole('complementary', { name: 'Changes' });
  const handle = screen.getByRole('separator', { name: 'Resize Changes' });
  return { user, pane, handle, onClose };
}

describe('SidePane', () => {
  it('starts at the default width, shown on the pane and as the separator value', () => {
    const { pane, handle } = renderPane();
    expect(pane.style.width).toBe(`${SIDE_PANE_DEFAULT_WIDTH}px`);
    expect(handle).toHaveAttribute('aria-valuenow', String(SIDE_PANE_DEFAULT_WIDTH));
    expect(handle).toHaveAttribute('aria-orientation', 'vertical');
    expect(handle).toHaveAttribute('aria-controls', 'pane');
  });

  it('resizes from the keyboard and remembers the width for the next pane', async () => {
    const { user, pane, handle } = renderPane();
    await user.tab();
    await user.tab();
    expect(handle).toHaveFocus();
    await user.keyboard('{ArrowLeft}{ArrowLeft}');
    expect(handle).toHaveAttribute('aria-valuenow', String(SIDE_PANE_DEFAULT_WIDTH + 32));
    await user.keyboard('{Shift>}{ArrowRight}{/Shift}');
    expect(pane.style.width).toBe(`${SIDE_PANE_DEFAULT_WIDTH + 32 - 64}px`);
    expect(readNumberPref(SIDE_PANE_WIDTH_PREF, 0)).toBe(SIDE_PANE_DEFAULT_WIDTH + 32 - 64);
    await user.keyboard('{Home}');
    expect(handle).toHaveAttribute('aria-valuenow', String(SIDE_PANE_MIN_WIDTH));
  });

  it('opens at the remembered width', () => {
    writeNumberPref(SIDE_PANE_WIDTH_PREF, 444);
    const { handle } = renderPane();
    expect(handle).toHaveAttribute('aria-valuenow', '444');
  });

  it('follows a drag of its handle and stores where it was let go', () => {
    const { pane, handle } = renderPane();
    fireEvent.pointerDown(handle, { button: 0, clientX: 800, pointerId: 1 });
    fireEvent.pointerMove(handle, { clientX: 760, pointerId: 1 });
    expect(pane.style.width).toBe(`${SIDE_PANE_DEFAULT_WIDTH + 40}px`);
    fireEvent.pointerUp(handle, { clientX: 780, pointerId: 1 });
    expect(pane.style.width).toBe(`${SIDE_PANE_DEFAULT_WIDTH + 20}px`);
    expect(readNumberPref(SIDE_PANE_WIDTH_PREF, 0)).toBe(SIDE_PANE_DEFAULT_WIDTH + 20);
  });

  it('keeps the transcript readable in a measured row and overlays when the row is too narrow', async () => {
    writeNumberPref(SIDE_PANE_WIDTH_PREF, 800);
    const { pane, handle } = renderPane();
    const row = pane.parentElement!;
    const width = vi.spyOn(row, 'offsetWidth', 'get').mockReturnValue(1100);
    await act(async () => flushResize());
    expect(handle).toHaveAttribute('aria-valuenow', String(1100 - TRANSCRIPT_MIN_WIDTH));
    expect(handle).toHaveAttribute('aria-valuemax', String(1100 - TRANSCRIPT_MIN_WIDTH));
    expect(pane).not.toHaveClass('is-overlay');
    width.mockReturnValue(700);
    await act(async () => flushResize());
    expect(pane).toHaveClass('is-overlay');
  });

  it('closes on Escape and from its close button', async () => {
    const { user, pane, onClose } = renderPane();
    act(() => pane.focus());
    await user.keyboard('{Escape}');
    expect(onClose).toHaveBeenCalledTimes(1);
    await user.click(screen.getByRole('button', { name: 'Close Changes' }));
    expect(onClose).toHaveBeenCalledTimes(2);
  });
});
