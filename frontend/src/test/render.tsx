import { render, screen, waitFor } from '@testing-library/react';
import { expect } from 'vitest';
import userEvent from '@testing-library/user-event';
import { App } from '../features/app/App';

/** Renders the whole app against the (mocked) bridge and waits for the shell. */
export async function renderApp() {
  const user = userEvent.setup();
  const result = render(<App />);
  await screen.findByRole('navigation', { name: 'Sidebar' });
  await waitFor(() => expect(screen.queryByText('Loading…')).not.toBeInTheDocument());
  return { user, ...result };
}
