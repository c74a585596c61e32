import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { basename, join, relative, resolve, sep } from 'node:path';
import { connectorName, packageNameProblem } from './package-name.js';
import { projectReadme } from './project-readme.js';
import { TEMPLATE_FILES, templateDirectory } from './template-files.js';

/** Options of {@link createConnector}. */
export interface CreateConnectorOptions {
  /** Where to create the project; it must not exist or be empty. */
  readonly directory: string;
  /** The package name. @default the directory's name */
  readonly name?: string;
  /** The SDK version range the project depends on. @default `^` + this scaffolder's version */
  readonly sdkRange?: string;
}

/** The scaffolder cannot go on: a bad name, or a directory that is in the way. */
export class ScaffoldError extends Error {
  override readonly name = 'ScaffoldError';
}

interface TemplatePackage {
  name: string;
  version: string;
  private?: boolean;
  description?: string;
  scripts: Record<string, string>;
  dependencies: Record<string, string>;
  [key: string]: unknown;
}

function ownVersion(): string {
  const own = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  return own.version;
}

function rewritePackage(text: string, name: string, sdkRange: string): string {
  const pkg = JSON.parse(text) as TemplatePackage;
  const scripts = Object.fromEntries(
    Object.entries(pkg.scripts).map(([script, command]) => [
      script,
      // The source condition only means something inside the SDK's own repository.
      command.replace(' --conditions=@connector-sdk/source', ''),
    ]),
  );
  const dependencies = Object.fromEntries(
    Object.entries(pkg.dependencies).map(([dependency, range]) => [
      dependency,
      dependency.startsWith('@connector-sdk/') ? sdkRange : range,
    ]),
  );
  return `${JSON.stringify(
    {
      ...pkg,
      name,
      version: '0.1.0',
      private: true,
      description: `A Connector SDK connector: ${connectorName(name)}`,
      scripts,
      dependencies,
    },
    null,
    2,
  )}\n`;
}

/**
 * Creates a new connector project from the issue-tracker example: copies it, renames the package and the
 * connector, points its SDK dependencies at published version ranges, and writes its README and .gitignore.
 * It asks nothing.
 *
 * @param options - the directory, and optionally the package name and SDK range
 * @returns the project's absolute directory and package name
 * @throws {@link ScaffoldError} for a bad package name or a directory that exists and is not empty
 * @example
 * ```ts
 * await createConnector({ directory: 'acme-connector' });
 * ```
 */
export function createConnector(options: CreateConnectorOptions): {
  readonly directory: string;
  readonly name: string;
} {
  const directory = resolve(options.directory);
  const name = options.name ?? basename(directory);
  const problem = packageNameProblem(name);
  if (problem !== undefined)
    throw new ScaffoldError(
      `"${name}" cannot be a package name: it ${problem}. Pass --name <name>.`,
    );
  if (existsSync(directory) && readdirSync(directory).length > 0)
    throw new ScaffoldError(`${directory} exists and is not empty; choose a new directory`);

  const template = templateDirectory();
  mkdirSync(directory, { recursive: true });
  for (const file of TEMPLATE_FILES) {
    cpSync(join(template, file), join(directory, file), {
      recursive: true,
      // Relative to the template: an installed scaffolder itself lives under some node_modules.
      filter: (source) => !relative(template, source).split(sep).includes('node_modules'),
    });
  }
  const sdkRange = options.sdkRange ?? `^${ownVersion()}`;
  const packageFile = join(directory, 'package.json');
  writeFileSync(packageFile, rewritePackage(readFileSync(packageFile, 'utf8'), name, sdkRange));
  const connectorFile = join(directory, 'src', 'connector.ts');
  const source = readFileSync(connectorFile, 'utf8');
  if (!source.includes("name: 'issue-tracker'"))
    throw new Error('The template connector has no name to replace');
  writeFileSync(
    connectorFile,
    source.replace("name: 'issue-tracker'", `name: '${connectorName(name)}'`),
  );
  writeFileSync(join(directory, 'README.md'), projectReadme(name));
  writeFileSync(join(directory, '.gitignore'), 'node_modules/\ndist/\ncoverage/\n');
  return { directory, name };
}
