import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { TurnStatusItem } from '../../state/transcript';
import { TurnRetryContext, TurnStatus } from './TranscriptRows';

const dialError: TurnStatusItem = {
  kind: 'turn-status',
  key: 'turn:t1',
  turnId: 't1',
  state: 'failed',
  code: 'PROVIDER_ERROR',
  message: 'Could not reach OpenAI-compatible at 127.0.0.1:9: dial tcp 127.0.0.1:9: connect: connection refused.',
  retriable: true,
};

function renderStatus(item: TurnStatusItem, canRetry = true) {
  const retry = vi.fn();
  render(
    <TurnRetryContext.Provider value={{ canRetry, retry }}>
      <TurnStatus item={item} />
    </TurnRetryContext.Provider>,
  );
  return { retry, user: userEvent.setup() };
}

describe('TurnStatus', () => {
  it('says what failed in a plain sentence, names Settings → Models and keeps the raw error in collapsed details', () => {
    renderStatus(dialError);
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('The model provider did not answer.');
    expect(alert).toHaveTextContent('Settings → Models');
    const details = alert.querySelector('details')!;
    expect(details.open).toBe(false);
    expect(details).toHaveTextContent('PROVIDER_ERROR');
    expect(details).toHaveTextContent('connection refused');
    expect(screen.getByText('Details')).toBeVisible();
  });

  it('Retry sends the failed turn again', async () => {
    const { retry, user } = renderStatus(dialError);
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(retry).toHaveBeenCalledWith('t1');
  });

  it('Retry waits while a turn runs', () => {
    renderStatus(dialError, false);
    expect(screen.getByRole('button', { name: 'Retry' })).toBeDisabled();
  });

  it.each([
    ['a stop the user asked for', { state: 'aborted', code: 'TURN_ABORTED', retriable: false }, 'Stopped'],
    ['a turn the app outlived', { state: 'interrupted', code: 'TURN_INTERRUPTED', retriable: false }, 'Interrupted'],
    ['a model that is not set up', { state: 'failed', code: 'MODEL_NOT_CONFIGURED', retriable: false }, 'No model is set up yet.'],
  ] as const)('offers no Retry for %s', (_name, patch, heading) => {
    renderStatus({ ...dialError, ...patch });
    expect(screen.getByText(heading)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Retry' })).not.toBeInTheDocument();
  });
});
