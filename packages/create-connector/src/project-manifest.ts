import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/** The parts of an example's `package.json` a new project is made from. */
export interface ExampleManifest {
  readonly engines?: Readonly<Record<string, string>>;
  readonly scripts: Readonly<Record<string, string>>;
  readonly dependencies?: Readonly<Record<string, string>>;
  readonly devDependencies?: Readonly<Record<string, string>>;
}

/** A new project's `package.json`. */
export interface ProjectManifest {
  readonly name: string;
  readonly version: string;
  readonly private: true;
  readonly description: string;
  readonly type: 'module';
  readonly engines: Readonly<Record<string, string>>;
  readonly scripts: Readonly<Record<string, string>>;
  readonly dependencies: Readonly<Record<string, string>>;
  readonly devDependencies: Readonly<Record<string, string>>;
  readonly allowScripts: Readonly<Record<string, boolean>>;
}

/** The tools a project's scripts run, always development dependencies. */
const TOOLS = ['@types/node', 'tsx', 'typescript', 'vitest'];

// Import and export statements (`import x from '…'`, `export { y } from '…'`, `import '…'`) and dynamic imports,
// each at the start of a line: a call such as `instant(url, 'from')` followed by a string is no import.
const IMPORT =
  /^\s*(?:import|export)\b[^;'"]*?\bfrom\s*['"]([^'"]+)['"]|^\s*import\s*['"]([^'"]+)['"]|\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/gm;

/** The package a bare import specifier names (`@scope/name/sub` → `@scope/name`), or undefined. */
function packageOf(specifier: string): string | undefined {
  if (specifier.startsWith('.') || specifier.startsWith('/') || specifier.startsWith('node:'))
    return undefined;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

function specifiers(file: string): string[] {
  return [...readFileSync(file, 'utf8').matchAll(IMPORT)].map(
    (match) => match[1] ?? match[2] ?? match[3] ?? '',
  );
}

/**
 * The packages a project's code imports, split by where they are needed: those the production entry point
 * reaches through its relative imports, and those only tests, the demo or the dev server use.
 *
 * @param files - the project's TypeScript files (absolute paths)
 * @param main - the production entry point, one of `files`
 * @internal
 */
export function importedPackages(
  files: readonly string[],
  main: string,
): { readonly production: ReadonlySet<string>; readonly development: ReadonlySet<string> } {
  const production = new Set<string>();
  const reached = new Set<string>();
  const visit = (file: string) => {
    if (reached.has(file) || !files.includes(file)) return;
    reached.add(file);
    for (const specifier of specifiers(file)) {
      const name = packageOf(specifier);
      if (name !== undefined) production.add(name);
      else if (specifier.startsWith('.'))
        visit(resolve(dirname(file), specifier.replace(/\.js$/, '.ts')));
    }
  };
  visit(main);
  const development = new Set<string>();
  for (const file of files)
    if (!reached.has(file))
      for (const specifier of specifiers(file)) {
        const name = packageOf(specifier);
        if (name !== undefined && !production.has(name)) development.add(name);
      }
  return { production, development };
}

/**
 * The `package.json` of a new project: ESM, the example's engines, scripts without the repository's source
 * condition plus a production build and start, and exactly the packages its code imports (those the production
 * entry point needs as dependencies, the rest and the tools as development dependencies), at the example's
 * versions, the SDK's at `sdkRange`.
 *
 * @param example - the example's manifest
 * @param code - the project's TypeScript files and its production entry point
 * @param identity - the new package's name, its description and the SDK's version range
 * @throws Error when the code imports a package the example does not declare (a broken template)
 * @internal
 */
export function projectManifest(
  example: ExampleManifest,
  code: { readonly files: readonly string[]; readonly main: string },
  identity: { readonly name: string; readonly description: string; readonly sdkRange: string },
): ProjectManifest {
  const declared = { ...example.devDependencies, ...example.dependencies };
  const { production, development } = importedPackages(code.files, code.main);
  const range = (name: string): string => {
    const version = declared[name];
    if (version === undefined)
      throw new Error(
        `The template's code imports ${name}, which its package.json does not declare`,
      );
    return name.startsWith('@connector-sdk/') ? identity.sdkRange : version;
  };
  const pick = (names: Iterable<string>) =>
    Object.fromEntries([...names].sort().map((name) => [name, range(name)]));
  const typesFor = (names: Iterable<string>) =>
    [...names].map((name) => `@types/${name.replace(/^@/, '').replace('/', '__')}`);
  const tools = [...TOOLS, ...typesFor([...production, ...development])].filter(
    (name) => name in declared,
  );

  const scripts: Record<string, string> = {};
  for (const [script, command] of Object.entries(example.scripts)) {
    // The source condition only means something inside the SDK's own repository.
    scripts[script] = command.replace(' --conditions=@connector-sdk/source', '');
  }
  // Production runs the compiled entry point, not TypeScript through tsx.
  Object.assign(scripts, {
    build: 'tsc -p tsconfig.build.json',
    prestart: 'npm run build',
    start: 'node dist/main.js',
  });

  return {
    name: identity.name,
    version: '0.1.0',
    private: true,
    description: identity.description,
    type: 'module',
    engines: example.engines ?? { node: '>=20.19' },
    scripts: Object.fromEntries(Object.entries(scripts).sort(([a], [b]) => order(a) - order(b))),
    dependencies: pick(production),
    devDependencies: pick(new Set([...development, ...tools])),
    // tsx runs on esbuild, whose install script sets up its platform binary: npm 11 asks a project to approve
    // dependencies' install scripts (and lists those it has not), npm 12 skips the ones not approved.
    allowScripts: { esbuild: true },
  };
}

const SCRIPT_ORDER = ['build', 'prestart', 'start', 'dev', 'demo', 'test', 'typecheck'];
const order = (script: string) =>
  SCRIPT_ORDER.includes(script) ? SCRIPT_ORDER.indexOf(script) : SCRIPT_ORDER.length;
