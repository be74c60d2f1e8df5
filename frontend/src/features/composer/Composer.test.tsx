import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { Composer, NO_RUNTIME_REASON } from './Composer';

describe('Composer', () => {
  it('without a runtime: editable, Send disabled, reason visible', async () => {
    const user = userEvent.setup();
    render(<Composer />);
    const box = screen.getByRole('textbox', { name: 'Message' });
    await user.type(box, 'hello{Enter}');
    expect(box).toHaveValue('hello');
    expect(screen.getByRole('button', { name: 'Send' })).toBeDisabled();
    expect(screen.getByText(NO_RUNTIME_REASON)).toBeVisible();
  });

  it('Enter sends the trimmed text and clears; Shift+Enter adds a newline', async () => {
    const user = userEvent.setup();
    const onSend = vi.fn();
    render(<Composer onSend={onSend} />);
    const box = screen.getByRole('textbox', { name: 'Message' });
    await user.type(box, '  first line{Shift>}{Enter}{/Shift}second  ');
    expect(box).toHaveValue('  first line\nsecond  ');
    expect(onSend).not.toHaveBeenCalled();
    await user.keyboard('{Enter}');
    expect(onSend).toHaveBeenCalledWith('first line\nsecond');
    expect(box).toHaveValue('');
    expect(screen.queryByText(NO_RUNTIME_REASON)).not.toBeInTheDocument();
  });

  it('does not send blank text', async () => {
    const user = userEvent.setup();
    const onSend = vi.fn();
    render(<Composer onSend={onSend} />);
    await user.type(screen.getByRole('textbox', { name: 'Message' }), '   {Enter}');
    expect(onSend).not.toHaveBeenCalled();
    expect(screen.getByRole('button', { name: 'Send' })).toBeDisabled();
  });
});
