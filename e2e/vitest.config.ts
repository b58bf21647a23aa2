import { defineConfig } from 'vitest/config';

/** Browser journeys against the built app; one file at a time (2 cores, one Chromium). */
export default defineConfig({
  test: {
    include: ['specs/**/*.spec.ts'],
    globalSetup: ['support/global-setup.ts'],
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 90_000,
    pool: 'forks',
  },
});
