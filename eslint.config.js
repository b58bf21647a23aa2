import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const typeormOutside =
  'TypeORM belongs in *.repository.ts, *.entity.ts and backend/src/database/: pass a Transaction (database/transaction.ts) and let a repository do the query.';

/** Type-aware linting for every workspace (each file checked against its own tsconfig). */
export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '**/dist-check/**',
      '**/dist-ssr/**',
      'data/**',
      'e2e/artifacts/**',
      'coverage/**',
      'frontend/public/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.node },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    // Tests poke at untyped JSON bodies on purpose.
    files: ['**/*.spec.ts', '**/*.test.ts', '**/*.test.tsx', '**/test/**/*.ts', 'e2e/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/unbound-method': 'off',
    },
  },
  {
    // TypeORM stays behind repositories: services, controllers and ports get a `Transaction`
    // handle from backend/src/database/transaction.ts and repositories unwrap it.
    files: ['backend/src/**/*.ts'],
    ignores: [
      'backend/src/**/*.repository.ts',
      'backend/src/**/*.entity.ts',
      'backend/src/database/**',
      'backend/src/**/*.spec.ts',
    ],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'typeorm', message: typeormOutside },
            {
              name: '@nestjs/typeorm',
              importNames: ['InjectDataSource', 'InjectEntityManager', 'getDataSourceToken', 'getEntityManagerToken'],
              message: typeormOutside,
            },
          ],
        },
      ],
    },
  },
  {
    files: ['frontend/**/*.{ts,tsx}', 'widget/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: { globals: { ...globals.browser } },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    ...tseslint.configs.disableTypeChecked,
  },
);
