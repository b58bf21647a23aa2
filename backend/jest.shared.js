/** Jest runs the ESM-only NestJS 12 in ESM mode (NODE_OPTIONS=--experimental-vm-modules), compiling TS with SWC. */
export const shared = {
  testEnvironment: 'node',
  // The contract workspace is tested from its TypeScript sources (its package.json "source" export).
  testEnvironmentOptions: { customExportConditions: ['source', 'node', 'node-addons'] },
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      {
        jsc: {
          parser: { syntax: 'typescript', decorators: true },
          transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
          target: 'es2023',
        },
        module: { type: 'es6' },
        sourceMaps: 'inline',
      },
    ],
  },
};
