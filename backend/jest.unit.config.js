import { shared } from './jest.shared.js';

export default { ...shared, displayName: 'unit', roots: ['<rootDir>/src'], testMatch: ['**/*.spec.ts'] };
