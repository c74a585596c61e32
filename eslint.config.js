// @ts-check
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/coverage/**',
      '**/node_modules/**',
      'docs-site/**',
      'packages/create-connector/template/**',
    ],
  },
  js.configs.recommended,
  { languageOptions: { globals: globals.node } },
  ...tseslint.configs.strict,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
    },
  },
  {
    // Runs in the browser, on the API reference site.
    files: ['scripts/docs-site/render-mermaid.js'],
    languageOptions: { globals: globals.browser },
  },
  {
    // Library code logs only through the logger the user passes in.
    files: ['packages/*/src/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: { 'no-console': 'error' },
  },
  {
    // Positional flags and look-alike arguments are easy to pass in the wrong order; an options object names
    // each one. Library and example source only: tests, benches and scripts are left free.
    files: ['packages/*/src/**/*.ts', 'examples/*/src/**/*.ts'],
    ignores: ['**/*.test.ts', '**/*.test-d.ts'],
    rules: { 'max-params': ['error', 3] },
  },
);
