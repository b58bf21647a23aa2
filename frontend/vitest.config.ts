import { defineConfig, mergeConfig } from 'vitest/config';
import viteConfig from './vite.config';

export default mergeConfig(
  viteConfig,
  defineConfig({
    test: {
      environment: 'jsdom',
      setupFiles: ['./src/test/setup.ts'],
      include: ['src/**/*.test.{ts,tsx}'],
      // jsdom renders of full MUI pages are slow on a busy 2-core machine.
      testTimeout: 15_000,
      restoreMocks: true,
      unstubEnvs: true,
    },
  }),
);
