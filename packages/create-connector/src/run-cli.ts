import { parseArgs } from 'node:util';
import { dirname, relative } from 'node:path';
import { ScaffoldError, createConnector } from './create-connector.js';
import { shellWord } from './packed-sdk.js';
import { TEMPLATES, isTemplateName } from './templates.js';

/** Where the CLI writes. */
export interface CliIo {
  /** Writes one line of normal output. */
  readonly out: (line: string) => void;
  /** Writes one line of error output. */
  readonly err: (line: string) => void;
}

const TEMPLATE_LIST = Object.entries(TEMPLATES)
  .map(([name, { summary }]) => `                           ${name}: ${summary}`)
  .join('\n');

const HELP = `Usage: create-connector <directory> [--template <name>] [--name <package-name>] [--packs <dir>]

Creates a new Connector SDK connector project in <directory> (which must not exist or be empty): a connector,
its tests with the conformance kit, a production entry point (npm start) and a dev server (npm run dev).

  --template <name>      what to start from (default: minimal):
${TEMPLATE_LIST}
  --name <package-name>  the package name (default: the directory's name)
  --packs <dir>          install the SDK from these packed packages (pnpm pack:local) instead of npm; run
                         from the SDK's repository, the default is its .packs/
  --help                 show this help

With npm: npm create @connector-sdk/connector <directory> -- --template <name>
(npm passes options on only after --)`;

/**
 * Runs the scaffolder's command line.
 *
 * @param argv - the arguments after the program name
 * @param io - where to write
 * @returns the exit status: 0 created, 1 could not create, 2 usage error
 * @example
 * ```ts
 * process.exitCode = runCli(process.argv.slice(2), { out: console.log, err: console.error });
 * ```
 */
export function runCli(argv: readonly string[], io: CliIo): number {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: {
        name: { type: 'string' },
        template: { type: 'string' },
        packs: { type: 'string' },
        help: { type: 'boolean' },
      },
    });
  } catch (error) {
    io.err(`error: ${(error as Error).message}\n\n${HELP}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help === true) {
    io.out(HELP);
    return 0;
  }
  const [directory, ...rest] = positionals;
  if (directory === undefined || rest.length > 0) {
    io.err(`error: give exactly one directory\n\n${HELP}`);
    return 2;
  }
  if (values.template !== undefined && !isTemplateName(values.template)) {
    io.err(`error: there is no template "${values.template}"\n\n${HELP}`);
    return 2;
  }
  try {
    const created = createConnector({
      directory,
      ...(values.name === undefined ? {} : { name: values.name }),
      ...(values.template === undefined ? {} : { template: values.template }),
      ...(values.packs === undefined ? {} : { packs: values.packs }),
    });
    const below = relative(process.cwd(), created.directory);
    const where = below === '' ? '.' : below.startsWith('..') ? created.directory : below;
    const packed = created.install[2];
    const note =
      packed === undefined
        ? ''
        : `\n\nThe SDK is not on npm yet: npm installs it from the packages packed in ${dirname(packed)}.`;
    io.out(`Created ${created.name} in ${created.directory} from the ${created.template} template.

Next:
  cd ${shellWord(where)}
  ${created.install.map(shellWord).join(' ')}
  npm test
  npm run dev${note}`);
    return 0;
  } catch (error) {
    if (error instanceof ScaffoldError) {
      io.err(`error: ${error.message}`);
      return 1;
    }
    throw error;
  }
}
