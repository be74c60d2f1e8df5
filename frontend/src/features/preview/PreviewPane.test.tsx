import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { bridgeModule as bridge, resetFakeBridge, type FakeBackend } from '../../test/fakeBridge';
import { PREVIEW_SANDBOX, PreviewPane, sameOriginAsApp } from './PreviewPane';

vi.mock('../../bridge', () => import('../../test/fakeBridge').then((m) => m.bridgeModule));

const URL1 = 'http://127.0.0.1:45123/0123456789abcdef0123456789abcdef/site/index.html';

function state(sessionId: string, extra: Record<string, unknown> = {}) {
  return { sessionId, kind: 'file', url: URL1, target: 'site/index.html', title: 'My page', revision: 0, ...extra };
}

let backend: FakeBackend;

beforeEach(() => {
  backend = resetFakeBridge({ browserPreviews: { s1: state('s1') } });
});

const frame = () => screen.getByTitle<HTMLIFrameElement>('Preview: My page');

describe('PreviewPane', () => {
  it('shows the session preview in a sandboxed frame from the loopback origin', async () => {
    render(<PreviewPane sessionId="s1" />);
    const f = await waitFor(frame);
    expect(f).toHaveAttribute('src', URL1);
    expect(f).toHaveAttribute('sandbox', PREVIEW_SANDBOX);
    expect(f.getAttribute('sandbox')).not.toContain('allow-top-navigation');
    expect(f.getAttribute('sandbox')).not.toContain('allow-popups');
    expect(f).toHaveAttribute('referrerpolicy', 'no-referrer');
    expect(screen.getByRole('complementary', { name: 'Preview' })).toHaveTextContent('My page');
    expect(new URL(URL1).origin).not.toBe(window.location.origin);
  });

  it('shows nothing for a session without a preview, and never another session pane', async () => {
    render(<PreviewPane sessionId="s2" />);
    await waitFor(() => expect(bridge.previewState).toHaveBeenCalledWith('s2'));
    act(() => backend.emit('preview:opened', state('s1', { title: 'Other session page' })));
    expect(screen.queryByRole('complementary', { name: 'Preview' })).toBeNull();
    act(() => backend.emit('preview:opened', state('s2', { title: 'Mine' })));
    expect(await screen.findByTitle('Preview: Mine')).toBeInTheDocument();
  });

  it('follows the visible session: switching shows that session pane or none', async () => {
    backend = resetFakeBridge({ browserPreviews: { s1: state('s1'), s3: state('s3', { title: 'Third', url: 'http://localhost:5173/' }) } });
    const { rerender } = render(<PreviewPane key="s1" sessionId="s1" />);
    await waitFor(frame);
    rerender(<PreviewPane key="s2" sessionId="s2" />);
    await waitFor(() => expect(screen.queryByRole('complementary', { name: 'Preview' })).toBeNull());
    rerender(<PreviewPane key="s3" sessionId="s3" />);
    expect(await screen.findByTitle('Preview: Third')).toHaveAttribute('src', 'http://localhost:5173/');
  });

  it('reloads the frame on a live reload and on Reload', async () => {
    const user = userEvent.setup();
    render(<PreviewPane sessionId="s1" />);
    const first = await waitFor(frame);
    act(() => backend.emit('preview:reload', state('s1', { revision: 1 })));
    const second = frame();
    expect(second).not.toBe(first);
    await user.click(screen.getByRole('button', { name: 'Reload' }));
    expect(frame()).not.toBe(second);
    expect(frame()).toHaveAttribute('src', URL1);
  });

  it('opens the preview in the system browser through the host, and closes it', async () => {
    const user = userEvent.setup();
    render(<PreviewPane sessionId="s1" />);
    await waitFor(frame);
    await user.click(screen.getByRole('button', { name: 'Open in browser' }));
    expect(bridge.openPreviewInBrowser).toHaveBeenCalledWith('s1');
    expect(backend.previewsInBrowser).toEqual(['s1']);
    await user.click(screen.getByRole('button', { name: 'Close preview' }));
    expect(bridge.closePreview).toHaveBeenCalledWith('s1');
    expect(screen.queryByRole('complementary', { name: 'Preview' })).toBeNull();
    expect(backend.browserPreviews.s1).toBeUndefined();
  });

  it('closes when the host says so', async () => {
    render(<PreviewPane sessionId="s1" />);
    await waitFor(frame);
    act(() => backend.emit('preview:closed', { sessionId: 's1' }));
    expect(screen.queryByRole('complementary', { name: 'Preview' })).toBeNull();
  });

  it('never frames a page with the app own origin', async () => {
    backend = resetFakeBridge({ browserPreviews: { s1: state('s1', { url: `${window.location.origin}/index.html`, kind: 'url', target: 'the app' }) } });
    render(<PreviewPane sessionId="s1" />);
    expect(await screen.findByRole('alert')).toHaveTextContent('has the app');
    expect(document.querySelector('iframe')).toBeNull();
    expect(sameOriginAsApp('not a url')).toBe(true);
    expect(sameOriginAsApp(URL1, 'wails://wails')).toBe(false);
  });
});
