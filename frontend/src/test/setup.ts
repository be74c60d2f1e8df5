import '@testing-library/jest-dom/vitest';
import { notifyManager } from '@tanstack/react-query';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';
import { NOW } from './fakeBridge';
import { installLayout, resetLayout } from './layout';

// React Query hands results to components on a setTimeout(0) by default, which tests
// with fake timers would hold back: deliver them on a microtask, which act() awaits.
notifyManager.setScheduler(queueMicrotask);

// waitFor/findBy wait for what the user would see; 1 s is too short on a
// loaded two-core machine, and a real failure still fails, only later.
configure({ asyncUtilTimeout: 4000 });

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
