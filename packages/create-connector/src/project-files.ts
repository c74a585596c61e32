/**
 * The files a new project gets that do not come from the example: its TypeScript configurations (the
 * example's resolve the SDK to its source inside the repository) and its `.gitignore`.
 *
 * @internal
 */
export const PROJECT_FILES: Readonly<Record<string, string>> = {
  // Type-checks everything, tests included; Node's own module resolution, as `node dist/main.js` will run it.
  'tsconfig.json': `${JSON.stringify(
    {
      compilerOptions: {
        target: 'ES2022',
        lib: ['ES2023'],
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        types: ['node'],
        strict: true,
        verbatimModuleSyntax: true,
        skipLibCheck: true,
        noEmit: true,
      },
      include: ['src', 'test'],
    },
    null,
    2,
  )}\n`,
  // Compiles what the production entry point reaches, and nothing else, into dist/.
  'tsconfig.build.json': `${JSON.stringify(
    {
      extends: './tsconfig.json',
      compilerOptions: { noEmit: false, rootDir: 'src', outDir: 'dist', sourceMap: true },
      include: [],
      files: ['src/main.ts'],
    },
    null,
    2,
  )}\n`,
  '.gitignore': 'node_modules/\ndist/\ncoverage/\n',
};
