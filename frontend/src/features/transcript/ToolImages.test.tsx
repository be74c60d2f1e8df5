import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ProviderProfile } from '../../bridge/types';
import { NOW, project, provider, resetFakeBridge, session, type FakeBackend } from '../../test/fakeBridge';
import { renderApp } from '../../test/render';

vi.mock('../../bridge', () => import('../../test/fakeBridge').then((m) => m.bridgeModule));

const HASH = 'ab'.repeat(32);
const OTHER = 'cd'.repeat(32);
const shot = { sha256: HASH, mediaType: 'image/png', width: 1280, height: 800, bytes: 245_000 };
const NOTE = /The model cannot see this image — it was told so\. Switch to a model that accepts images/;

let backend: FakeBackend;
function seed(providers: ProviderProfile[], sessionProviders: Record<string, string> = {}) {
  backend = resetFakeBridge({
    projects: [project('p1', 'alpha-app')],
    sessions: [session('s1', 'p1', 'Look at the page', NOW - 60_000)],
    providers,
    sessionProviders,
  });
}

const blind = provider('local', 'Local', { api: 'openai-compatible', model: 'llama3.1:8b', imagesByDefault: false, isDefault: true });
const seeing = provider('claude', 'Claude', { model: 'claude-sonnet-4-5', imagesByDefault: true });

beforeEach(() => seed([blind, seeing]));

/** A transcript whose one tool call returned images (as reloaded from the store). */
function withImages(images: unknown[], tool = 'mcp_browser_screenshot') {
  backend.transcripts.s1 = {
    sessionId: 's1',
    turns: [{ id: 't1', sessionId: 's1', prompt: 'look', state: 'done', createdAt: 1 }],
    messages: [{
      seq: 1, id: 'm1', turnId: 't1', role: 'assistant', kind: 'model', stopReason: 'end_turn', content: [],
      toolCalls: [{
        id: 'c1', turnId: 't1', messageId: 'm1', toolUseId: 'u1', position: 0, tool, args: {}, state: 'done',
        mcp: { server: 'browser', tool: 'screenshot', title: '' },
        result: { ok: true, content: '1 image', images },
      }],
    }],
  };
}

async function openSession() {
  const r = await renderApp();
  await r.user.click(screen.getByRole('button', { name: /^Look at the page/ }));
  await waitFor(() => expect(screen.getByRole('log', { name: 'Transcript' })).toHaveAttribute('aria-busy', 'false'));
  return r;
}

function log() {
  return within(screen.getByRole('log', { name: 'Transcript' }));
}

describe('Images in tool results', () => {
  it('shows a result\'s images as lazy thumbnails from the store, sized before they load', async () => {
    withImages([shot, { ...shot, sha256: OTHER, mediaType: 'image/jpeg', width: 100, height: 50 }]);
    await openSession();
    const list = log().getByRole('list', { name: '2 images' });
    const [big, small] = within(list).getAllByRole('img');
    expect(big).toHaveAttribute('alt', 'Image from screenshot (1280×800)');
    expect(big).toHaveAttribute('src', `/_attachments/${HASH}`);
    expect(big).toHaveAttribute('loading', 'lazy');
    expect(big).toHaveAttribute('width', '256');
    expect(big).toHaveAttribute('height', '160');
    expect(small).toHaveAttribute('alt', 'Image from screenshot (100×50)');
    expect(small).toHaveAttribute('src', `/_attachments/${OTHER}`);
    expect(small).toHaveAttribute('height', '50');
  });

  it('shows images that arrive with a live tool result', async () => {
    await openSession();
    const base = { sessionId: 's1', turnId: 't1' };
    const call = { ...base, messageId: 'm1', toolCallId: 'c1', toolUseId: 'u1', tool: 'Screenshot' };
    act(() => {
      backend.emit('agent:turn', { ...base, state: 'running' });
      backend.emit('agent:message', { ...base, messageId: 'm1', role: 'assistant', kind: 'model', state: 'tool_use' });
      backend.emit('agent:tool_call', { ...call, phase: 'ready', args: {} });
      backend.emit('agent:tool_call', { ...call, phase: 'running' });
    });
    expect(log().queryByRole('list', { name: 'Image' })).not.toBeInTheDocument();
    act(() => backend.emit('agent:tool_result', { ...call, state: 'done', result: { ok: true, images: [shot] }, modelText: '…', isError: false }));
    const img = within(log().getByRole('list', { name: 'Image' })).getByRole('img');
    expect(img).toHaveAttribute('alt', 'Image from Screenshot (1280×800)');
  });

  it('says when the session\'s model cannot see images, and not when it can', async () => {
    withImages([shot]);
    const { user } = await openSession();
    expect(log().getByText(NOTE)).toBeInTheDocument();

    // Pinning a model that accepts images takes the note away.
    const composer = within(screen.getByRole('form', { name: 'Composer' }));
    await user.click(await composer.findByRole('button', { name: 'Model: Local (default)' }));
    await user.click(within(await screen.findByRole('menu', { name: 'Model' })).getByRole('menuitemradio', { name: /^Claude/ }));
    await waitFor(() => expect(log().queryByText(NOTE)).not.toBeInTheDocument());
    expect(within(log().getByRole('list', { name: 'Image' })).getByRole('img')).toBeInTheDocument();
  });

  it.each([
    ['the model is known to accept images', { imagesByDefault: true }, false],
    ['images are forced on for an unknown model', { imagesByDefault: false, supportsImages: true }, false],
    ['images are forced off for a known model', { imagesByDefault: true, supportsImages: false }, true],
    ['the model is not known to accept images', { imagesByDefault: false }, true],
  ])('notes the images only when the model cannot see them: %s', async (_, extra, noted) => {
    seed([provider('only', 'Only', { isDefault: true, ...extra })]);
    withImages([shot]);
    await openSession();
    expect(log().getByRole('list', { name: 'Image' })).toBeInTheDocument();
    // The picker shows the model once the providers are read: the transcript has them too.
    await within(screen.getByRole('form', { name: 'Composer' })).findByRole('button', { name: 'Model: Only (default)' });
    expect(Boolean(log().queryByText(NOTE))).toBe(noted);
  });

  it('says nothing about a model it does not know (the environment\'s)', async () => {
    seed([]);
    withImages([shot]);
    await openSession();
    expect(log().getByRole('list', { name: 'Image' })).toBeInTheDocument();
    await within(screen.getByRole('form', { name: 'Composer' })).findByRole('button', { name: 'Add a model…' });
    expect(log().queryByText(/cannot see/)).not.toBeInTheDocument();
  });

  it('opens a larger view on click; Escape closes it and focus returns to the thumbnail', async () => {
    withImages([shot]);
    const { user } = await openSession();
    const thumb = log().getByRole('button', { name: 'Open Image from screenshot (1280×800)' });
    await user.click(thumb);
    const dialog = await screen.findByRole('dialog', { name: 'Image from screenshot (1280×800)' });
    const full = within(dialog).getByRole('img', { name: 'Image from screenshot (1280×800)' });
    expect(full).toHaveAttribute('src', `/_attachments/${HASH}`);
    expect(dialog).toHaveTextContent('1280×800 · PNG · 239 KB');
    expect(within(dialog).getByRole('button', { name: 'Close' })).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(thumb).toHaveFocus();

    await user.click(thumb);
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(thumb).toHaveFocus();
  });

  it('never builds a URL from a reference that is not a hash, and says when an image cannot be loaded', async () => {
    withImages([{ ...shot, sha256: '../pi.sqlite' }, { ...shot, sha256: OTHER }]);
    await openSession();
    const list = log().getByRole('list', { name: '2 images' });
    expect(within(list).getByRole('img', { name: 'Image from screenshot (1280×800), not available' })).toHaveTextContent('Image not available');
    const loaded = within(list).getByRole('button', { name: /^Open/ });
    expect(list.querySelectorAll('img')).toHaveLength(1);
    expect(list.querySelector('img')).toHaveAttribute('src', `/_attachments/${OTHER}`);

    fireEvent.error(within(loaded).getByRole('img'));
    expect(within(list).queryByRole('button', { name: /^Open/ })).not.toBeInTheDocument();
    expect(within(list).getAllByText('Image not available')).toHaveLength(2);
  });

  it('shows no image list for a result without images', async () => {
    withImages([]);
    await openSession();
    expect(log().getByRole('button', { name: /screenshot/ })).toBeInTheDocument();
    expect(log().queryByRole('list', { name: /image/i })).not.toBeInTheDocument();
    expect(log().queryByText(/cannot see/)).not.toBeInTheDocument();
  });
});
