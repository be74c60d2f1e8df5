import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
  },
  // Tests run the backend's visualization shell scripts (backend/viz/assets).
  server: { fs: { allow: ['.', '../backend/viz/assets'] } },
  test: {
    environment: 'jsdom',
    setupFiles: ['./src/test/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    restoreMocks: true,
    // CI shares two cores with Go's race-enabled tests: a settings form's
    // dozens of typed keys can outlast the 5 s default without being wrong.
    testTimeout: 20_000,
    // Style sheets stay empty in tests, except read as text (?raw): src/focusStyles.test.ts.
    css: { include: [/\.css\?raw$/] },
  },
});
