import { fileURLToPath } from 'node:url';
import { defaultClientConditions } from 'vite';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    conditions: ['source', ...defaultClientConditions],
    // Tests run the English window (tsconfig.json's paths); each language file has its own test.
    alias: {
      '#texts': fileURLToPath(new URL('src/lang/en.ts', import.meta.url)),
      '#extras-texts': fileURLToPath(new URL('src/lang/extras/en.ts', import.meta.url)),
    },
  },
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  test: {
    environment: 'jsdom',
    include: ['src/**/*.spec.{ts,tsx}'],
  },
});
