import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Attachment } from '../../bridge/attachments';
import { BridgeError } from '../../bridge/errors';
import { bridgeModule as bridge, resetFakeBridge } from '../../test/fakeBridge';
import { renderWithData } from '../../test/render';
import { PromptRow } from '../transcript/TranscriptRows';
import { Composer } from './Composer';

vi.mock('../../bridge', () => import('../../test/fakeBridge').then((m) => m.bridgeModule));
vi.mock('../checkpoints/RestoreHost', () => ({ RestoreAction: () => null }));

beforeEach(() => resetFakeBridge());

const SHA = 'a'.repeat(64);

function att(name: string, over: Partial<Attachment> = {}): Attachment {
  return { path: `/data/scratch/s1/pasted/${name}`, name, size: 2048, mediaType: 'text/plain', sha256: '', width: 0, height: 0, imageBytes: 0, imageMediaType: '', ...over };
}

function setup() {
  const onSend = vi.fn(async (_text: string, _atts?: Attachment[]) => {});
  const user = userEvent.setup();
  renderWithData(<Composer onSend={onSend} onStop={vi.fn(async () => {})} running={false} attachTo="s1" />);
  return { user, onSend, box: screen.getByRole('textbox', { name: 'Message' }) };
}

/** A paste event carrying files, as the browser fires it for a pasted screenshot. */
function pasteFiles(target: HTMLElement, files: File[]) {
  fireEvent.paste(target, { clipboardData: { files, types: ['Files'], getData: () => '' } });
}

describe('Composer attachments', () => {
  it('a pasted image is sent once as base64 and shows as a chip with its thumbnail', async () => {
    bridge.attachData.mockImplementation(async (_s, name) => att(name, { mediaType: 'image/png', sha256: SHA, size: 4 }));
    const { user, onSend, box } = setup();
    pasteFiles(box, [new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'image.png', { type: 'image/png' })]);
    const chips = await screen.findByRole('list', { name: 'Attachments' });
    expect(bridge.attachData).toHaveBeenCalledWith('s1', 'image.png', 'iVBORw==', { count: 0, bytes: 0 });
    expect(within(chips).getByText('image.png')).toBeInTheDocument();
    expect(within(chips).getByText('4 B')).toBeInTheDocument();
    expect(chips.querySelector('img')).toHaveAttribute('src', `/_attachments/${SHA}`);
    // Attachments alone may be sent; the references go with the prompt.
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(onSend).toHaveBeenCalledWith('', [expect.objectContaining({ name: 'image.png', sha256: SHA })]);
    expect(screen.queryByRole('list', { name: 'Attachments' })).not.toBeInTheDocument();
  });

  it('pasted text stays text', async () => {
    const { box } = setup();
    pasteFiles(box, []);
    expect(bridge.attachData).not.toHaveBeenCalled();
  });

  it('files dropped on a browser page are read and attached, each within the budget held so far', async () => {
    bridge.attachData.mockImplementation(async (_s, name) => att(name, { size: name === 'a.txt' ? 5 : 6 }));
    const { onSend, box } = setup();
    const form = screen.getByRole('form', { name: 'Composer' });
    const files = [new File(['hello'], 'a.txt'), new File(['world!'], 'b.txt')];
    fireEvent.drop(form, { dataTransfer: { files, types: ['Files'] } });
    const chips = await screen.findByRole('list', { name: 'Attachments' });
    await waitFor(() => expect(within(chips).getAllByRole('listitem')).toHaveLength(2));
    expect(bridge.attachData).toHaveBeenNthCalledWith(2, 's1', 'b.txt', expect.any(String), { count: 1, bytes: 5 });
    await userEvent.setup().type(box, 'read these{Enter}');
    expect(onSend).toHaveBeenCalledWith('read these', [expect.objectContaining({ name: 'a.txt' }), expect.objectContaining({ name: 'b.txt' })]);
  });

  it('in the app window a drop arrives as paths; the attach button opens the dialog', async () => {
    let dropped: ((paths: string[]) => void) | undefined;
    bridge.onFileDrop.mockImplementation((cb) => {
      dropped = cb;
      return () => {};
    });
    bridge.attachFiles.mockImplementation(async (_s, paths) => paths.map((p) => att(p.split('/').pop() ?? '')));
    bridge.chooseFiles.mockImplementation(async () => [att('chosen.pdf', { mediaType: 'application/pdf' })]);
    const { user } = setup();
    await waitFor(() => expect(dropped).toBeDefined());
    await act(async () => dropped?.(['/home/me/report.md']));
    expect(bridge.attachFiles).toHaveBeenCalledWith('s1', ['/home/me/report.md'], { count: 0, bytes: 0 });
    await user.click(screen.getByRole('button', { name: 'Attach files' }));
    expect(bridge.chooseFiles).toHaveBeenCalledWith('s1', { count: 1, bytes: 2048 });
    const chips = screen.getByRole('list', { name: 'Attachments' });
    expect(within(chips).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['report.md2.0 KB', 'chosen.pdf2.0 KB']);
  });

  it('a chip is removed from the keyboard', async () => {
    bridge.chooseFiles.mockImplementation(async () => [att('one.txt'), att('two.txt')]);
    const { user } = setup();
    await user.click(screen.getByRole('button', { name: 'Attach files' }));
    const remove = await screen.findByRole('button', { name: 'Remove one.txt' });
    remove.focus();
    await user.keyboard('{Enter}');
    const chips = screen.getByRole('list', { name: 'Attachments' });
    expect(within(chips).queryByText('one.txt')).not.toBeInTheDocument();
    expect(within(chips).getByText('two.txt')).toBeInTheDocument();
  });

  it('a refusal is shown with its code and nothing is attached', async () => {
    bridge.chooseFiles.mockRejectedValue(new BridgeError('ATTACHMENT_TOO_MANY', 'a message carries at most 20 files; send these in two messages'));
    const { user } = setup();
    await user.click(screen.getByRole('button', { name: 'Attach files' }));
    expect(await screen.findByText('ATTACHMENT_TOO_MANY')).toBeInTheDocument();
    expect(screen.queryByRole('list', { name: 'Attachments' })).not.toBeInTheDocument();
  });

  it('without a session nothing can be attached', () => {
    renderWithData(<Composer onSend={vi.fn(async () => {})} onStop={vi.fn(async () => {})} running={false} />);
    expect(screen.queryByRole('button', { name: 'Attach files' })).not.toBeInTheDocument();
  });
});

describe('PromptRow', () => {
  it("shows the prompt's attachments", () => {
    render(<PromptRow item={{ kind: 'prompt', key: 'k', turnId: 't', messageId: 'm', text: 'look', attachments: [att('shot.png', { sha256: SHA, mediaType: 'image/png' })] }} />);
    const chips = screen.getByRole('list', { name: 'Attached files' });
    expect(within(chips).getByText('shot.png')).toBeInTheDocument();
    expect(within(chips).queryByRole('button')).not.toBeInTheDocument();
  });
});
