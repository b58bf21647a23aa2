import { shared } from './jest.shared.js';

/**
 * A few unit tests start worker threads (PDF and file extraction) or real Redis clients; on a
 * loaded 2-core CI machine those took over jest's default 5 s, so the limit for a hung test is 30 s.
 */
export default {
  ...shared,
  displayName: 'unit',
  roots: ['<rootDir>/src'],
  testMatch: ['**/*.spec.ts'],
  testTimeout: 30_000,
};
