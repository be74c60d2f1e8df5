// End-to-end flows: the real frontend and the real Go backend (the dev build's Wails dev
// server), driven with Debian's Chromium through Playwright. Run with `make test-e2e`.
import { defineConfig } from '@playwright/test';

const chromium = process.env.PI_E2E_CHROMIUM ?? '/usr/bin/chromium';

export default defineConfig({
  testDir: './flows',
  outputDir: './test-results',
  globalSetup: './fixtures/globalSetup.ts',
  // One app (a WebKit window on Xvfb) plus one Chromium per worker: on two cores one
  // worker is the stable choice. PI_E2E_WORKERS raises it on bigger machines.
  workers: Number(process.env.PI_E2E_WORKERS ?? 1),
  fullyParallel: false,
  forbidOnly: true,
  retries: 0,
  timeout: 90_000,
  expect: { timeout: 15_000 },
  reporter: [['list']],
  use: {
    browserName: 'chromium',
    viewport: { width: 1280, height: 800 },
    actionTimeout: 15_000,
    navigationTimeout: 30_000,
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: chromium,
      // Playwright adds --headless, --no-sandbox (chromiumSandbox is off) and a fresh
      // --user-data-dir; these are the rest of the flags this machine needs.
      args: ['--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    },
  },
});
