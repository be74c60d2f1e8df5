// Lint for src/ and e2e/ (npm run lint, part of `make test`): the recommended rules of
// ESLint and typescript-eslint, the rules of hooks, and the bridge boundary.
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import { defineConfig, globalIgnores } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default defineConfig([
  globalIgnores(['dist/', 'wailsjs/', 'e2e/test-results/', 'e2e/screenshots/', 'playwright-report/']),
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: { globals: globals.browser },
    // The classic two rules; the plugin's React Compiler rules assume code written for the
    // compiler, which this app does not use.
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  {
    files: ['e2e/**/*.{ts,mjs}', '*.config.{js,ts}'],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    // Playwright reads a fixture's dependencies from its first parameter's pattern: `{}` is how one says "none".
    rules: { 'no-empty-pattern': 'off' },
  },
  {
    rules: {
      // `_name` marks a parameter kept for its position.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // Only src/bridge talks to Wails: everything else goes through its typed calls and events.
    files: ['src/**/*.{ts,tsx}', 'e2e/**/*.{ts,mjs}'],
    ignores: ['src/bridge/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/wailsjs', '**/wailsjs/**'], message: 'Only src/bridge may import wailsjs: use the typed calls and events in src/bridge.' }] },
      ],
    },
  },
]);
