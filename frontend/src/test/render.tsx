import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { render, screen, waitFor, type RenderOptions } from '@testing-library/react';
import type { ReactNode } from 'react';
import { expect } from 'vitest';
import userEvent from '@testing-library/user-event';
import { App } from '../features/app/App';
import { cacheRules } from '../features/app/cacheRules';
import { LiveDataProvider } from '../state/LiveData';
import { SessionActivityProvider } from '../state/SessionActivityContext';
import { createQueryClient } from '../state/queryClient';

/**
 * The data layer a component needs outside <App />: a fresh QueryClient (no cache
 * shared between tests), the event router with the app's cache rules, and the session
 * activity store.
 */
export function dataWrapper(client: QueryClient = createQueryClient()) {
  return function DataProviders({ children }: { children: ReactNode }) {
    return (
      <QueryClientProvider client={client}>
        <LiveDataProvider rules={cacheRules}>
          <SessionActivityProvider>{children}</SessionActivityProvider>
        </LiveDataProvider>
      </QueryClientProvider>
    );
  };
}

/** render() inside a fresh data layer; rerender keeps the same one. */
export function renderWithData(ui: ReactNode, options: Omit<RenderOptions, 'wrapper'> = {}) {
  return render(ui, { ...options, wrapper: dataWrapper() });
}

/** Renders the app as main.tsx does, with a fresh QueryClient (or the one given). */
export function renderRoot(client: QueryClient = createQueryClient()) {
  return render(
    <QueryClientProvider client={client}>
      <App />
    </QueryClientProvider>,
  );
}

/** Renders the whole app against the (mocked) bridge and waits for the shell. */
export async function renderApp(client?: QueryClient) {
  const user = userEvent.setup();
  const result = renderRoot(client);
  await screen.findByRole('navigation', { name: 'Sidebar' });
  await waitFor(() => expect(screen.queryByText('Loading…')).not.toBeInTheDocument());
  return { user, ...result };
}
