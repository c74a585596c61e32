import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { basename, join, relative, resolve, sep } from 'node:path';
import { connectorName, packageNameProblem } from './package-name.js';
import { ScaffoldError, packedTarballs, packsDirectory, repositoryRoot } from './packed-sdk.js';
import { PROJECT_FILES } from './project-files.js';
import { projectManifest, type ExampleManifest } from './project-manifest.js';
import { projectReadme } from './project-readme.js';
import { TEMPLATES, isTemplateName, templateDirectory, type TemplateName } from './templates.js';

export { ScaffoldError } from './packed-sdk.js';

/** Options of {@link createConnector}. */
export interface CreateConnectorOptions {
  /** Where to create the project; it must not exist or be empty. */
  readonly directory: string;
  /** The package name. @default the directory's name */
  readonly name?: string;
  /** What the project starts from (see {@link TEMPLATES}). @default 'minimal' */
  readonly template?: TemplateName;
  /** The SDK version range the project depends on. @default `^` + this scaffolder's version */
  readonly sdkRange?: string;
  /**
   * A directory of packed SDK packages (`pnpm pack:local` makes `.packs/` in the SDK's repository) to install
   * from instead of the npm registry, before the SDK's release; `false` for the registry.
   * @default the repository's `.packs/` when the scaffolder runs from the repository, else the registry
   */
  readonly packs?: string | false;
}

/** What {@link createConnector} made. */
export interface CreatedConnector {
  /** The project's absolute directory. */
  readonly directory: string;
  /** Its package name. */
  readonly name: string;
  /** The template it started from. */
  readonly template: TemplateName;
  /**
   * The command that installs its dependencies, as arguments: `['npm', 'install']`, or with the packed SDK's
   * tarballs when it is installed from packs (the project's `package.json` names the SDK by version range, which
   * npm cannot find before the release).
   */
  readonly install: readonly string[];
}

/** The directories of an example a project is made from; the rest it gets from {@link PROJECT_FILES}. */
const CODE = ['src', 'test'] as const;

function ownVersion(): string {
  const own = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  return own.version;
}

/**
 * Creates a new connector project from a template (an example of the SDK's repository): copies its code,
 * renames the connector, and writes a `package.json` with exactly the packages the code imports (the testing
 * kit as a development dependency), a production build and start, TypeScript configurations, a README and a
 * `.gitignore`. It asks nothing, and writes nothing when a check fails.
 *
 * @param options - the directory, and optionally the package name, template, SDK range and packs
 * @returns the project's directory, name, template and install command
 * @throws {@link ScaffoldError} for a bad package name or template, a directory that exists and is not empty,
 * or packs that lack a package the project needs
 * @example
 * ```ts
 * const created = createConnector({ directory: 'acme-connector', template: 'minimal' });
 * console.log(created.install.join(' ')); // npm install
 * ```
 */
export function createConnector(options: CreateConnectorOptions): CreatedConnector {
  const directory = resolve(options.directory);
  const name = options.name ?? basename(directory);
  const problem = packageNameProblem(name);
  if (problem !== undefined)
    throw new ScaffoldError(
      `"${name}" cannot be a package name: it ${problem}. Pass --name <name>.`,
    );
  const template = options.template ?? 'minimal';
  if (!isTemplateName(template))
    throw new ScaffoldError(
      `there is no template "${String(template)}": choose ${Object.keys(TEMPLATES).join(' or ')}`,
    );
  if (existsSync(directory) && readdirSync(directory).length > 0)
    throw new ScaffoldError(`${directory} exists and is not empty; choose a new directory`);
  const packs = packsDirectory(options.packs, repositoryRoot());

  const source = templateDirectory(template);
  // A file or a folder the template leaves out, with everything in it.
  const leave = TEMPLATES[template].leave.map((file) => join(source, file));
  const keep = (file: string) =>
    !leave.some((left) => file === left || file.startsWith(`${left}${sep}`)) &&
    !relative(source, file).split(sep).includes('node_modules');
  const files = CODE.flatMap((folder) => typeScriptFiles(join(source, folder))).filter(keep);
  const example = JSON.parse(readFileSync(join(source, 'package.json'), 'utf8')) as ExampleManifest;
  const manifest = projectManifest(
    example,
    { files, main: join(source, 'src', 'main.ts') },
    {
      name,
      description: `A Connector SDK connector: ${connectorName(name)}`,
      sdkRange: options.sdkRange ?? `^${ownVersion()}`,
    },
  );
  const sdk = [
    ...Object.keys(manifest.dependencies),
    ...Object.keys(manifest.devDependencies),
  ].filter((dependency) => dependency.startsWith('@connector-sdk/'));
  // Checked before anything is written: a missing tarball leaves no half-made project behind.
  const install =
    packs === undefined ? ['npm', 'install'] : ['npm', 'install', ...packedTarballs(packs, sdk)];

  mkdirSync(directory, { recursive: true });
  for (const folder of CODE)
    if (existsSync(join(source, folder)))
      // Relative to the template: an installed scaffolder itself lives under some node_modules.
      cpSync(join(source, folder), join(directory, folder), { recursive: true, filter: keep });
  for (const folder of CODE)
    for (const file of typeScriptFiles(join(directory, folder))) dropRegions(file);
  renameConnector(join(directory, 'src', 'connector.ts'), connectorName(name));
  writeFileSync(join(directory, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  for (const [file, text] of Object.entries(PROJECT_FILES))
    writeFileSync(join(directory, file), text);
  writeFileSync(join(directory, 'README.md'), projectReadme(name, template));
  return { directory, name, template, install };
}

/** The TypeScript files under a directory, at any depth (none when it does not exist). */
function typeScriptFiles(directory: string): string[] {
  if (!existsSync(directory)) return [];
  return readdirSync(directory, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => join(entry.parentPath, entry.name));
}

/** A `#region` line: the docs' snippet markers in the examples, which mean nothing in a project. */
const REGION = /^[ \t]*\/\/ #(?:end)?region\b.*\r?\n/gm;

/** Takes the docs' snippet markers out of a copied file. */
function dropRegions(file: string): void {
  const source = readFileSync(file, 'utf8');
  const without = source.replace(REGION, '');
  if (without !== source) writeFileSync(file, without);
}

/** Gives the template's connector the project's name, as `discover` will answer it. */
function renameConnector(file: string, name: string): void {
  const source = readFileSync(file, 'utf8');
  const declared = /(defineConnector\(\{\s*name: )'[^']*'/;
  if (!declared.test(source))
    throw new Error(`The template connector (${file}) has no name to replace`);
  writeFileSync(file, source.replace(declared, `$1'${name}'`));
}
