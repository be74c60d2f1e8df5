import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { BridgeError } from '../../bridge/errors';
import { Composer } from './Composer';

function setup(props: Partial<Parameters<typeof Composer>[0]> = {}) {
  const onSend = vi.fn(async (_text: string) => {});
  const onStop = vi.fn(async () => {});
  const user = userEvent.setup();
  const view = render(<Composer onSend={onSend} onStop={onStop} running={false} {...props} />);
  return { user, onSend, onStop, view, box: screen.getByRole('textbox', { name: 'Message' }) };
}

describe('Composer', () => {
  it('Enter sends the trimmed text and clears once sent; Shift+Enter adds a newline', async () => {
    const { user, onSend, box } = setup();
    await user.type(box, '  first line{Shift>}{Enter}{/Shift}second  ');
    expect(box).toHaveValue('  first line\nsecond  ');
    expect(onSend).not.toHaveBeenCalled();
    await user.keyboard('{Enter}');
    expect(onSend).toHaveBeenCalledWith('first line\nsecond');
    expect(box).toHaveValue('');
  });

  it('does not send blank text', async () => {
    const { user, onSend, box } = setup();
    await user.type(box, '   {Enter}');
    expect(onSend).not.toHaveBeenCalled();
    expect(screen.getByRole('button', { name: 'Send' })).toBeDisabled();
  });

  it('keeps the text and shows the code when the send is rejected', async () => {
    const onSend = vi.fn().mockRejectedValue(new BridgeError('AGENT_BUSY', 'a turn is already running in this session; wait for it or press Stop'));
    const { user, box } = setup({ onSend });
    await user.type(box, 'do it{Enter}');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('AGENT_BUSY');
    expect(alert).toHaveTextContent('a turn is already running');
    expect(box).toHaveValue('do it');
  });

  it('MODEL_NOT_CONFIGURED shows how to configure a model and keeps the text', async () => {
    const onSend = vi.fn().mockRejectedValue(new BridgeError('MODEL_NOT_CONFIGURED', 'no model is configured'));
    const { user, box } = setup({ onSend });
    await user.type(box, 'hello{Enter}');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('No model is configured');
    expect(alert).toHaveTextContent('PI_DESKTOP_PROVIDER');
    expect(alert).toHaveTextContent('PI_DESKTOP_MODEL');
    expect(alert).toHaveTextContent('ANTHROPIC_API_KEY');
    expect(alert).toHaveTextContent('OPENAI_API_KEY');
    expect(box).toHaveValue('hello');
    // Sending again once the model is set up clears the notice.
    onSend.mockResolvedValueOnce(undefined);
    await user.keyboard('{Enter}');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(box).toHaveValue('');
  });

  it('while a turn runs: Stop instead of Send, Enter does not send, Stop calls onStop', async () => {
    const { user, onSend, onStop, box, view } = setup({ running: true });
    expect(screen.queryByRole('button', { name: 'Send' })).not.toBeInTheDocument();
    await user.type(box, 'next{Enter}');
    expect(onSend).not.toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: 'Stop' }));
    expect(onStop).toHaveBeenCalledTimes(1);
    view.rerender(<Composer onSend={onSend} onStop={onStop} running={false} />);
    expect(screen.getByRole('button', { name: 'Send' })).toBeEnabled();
    expect(box).toHaveValue('next');
  });
});
