// The one QueryClient of the app (created at the root, a fresh one per test). Request/
// response data lives in its cache; backend events invalidate it (see LiveData.tsx).
import { QueryClient } from '@tanstack/react-query';

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        // A failed read shows its code at once with a Retry button: the user decides.
        retry: false,
        // Events keep data fresh; focus and reconnect say nothing in a desktop window.
        refetchOnWindowFocus: false,
        refetchOnReconnect: false,
      },
      mutations: { retry: false },
    },
  });
}
