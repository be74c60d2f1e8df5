import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';
import { NOW } from './fakeBridge';
import { installLayout, resetLayout } from './layout';

// A little layout for the virtualized transcript (see layout.ts).
installLayout();

// Only Date is faked: timers stay real so user-event and waitFor work.
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
});

afterEach(() => {
  cleanup();
  resetLayout();
  vi.useRealTimers();
  delete document.documentElement.dataset.theme;
});
