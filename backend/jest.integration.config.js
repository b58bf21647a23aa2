import { shared } from './jest.shared.js';

export default {
  ...shared,
  displayName: 'integration',
  roots: ['<rootDir>/test'],
  testMatch: ['**/integration/**/*.spec.ts'],
  testTimeout: 60_000,
};
