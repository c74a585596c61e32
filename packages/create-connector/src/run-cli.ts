import { parseArgs } from 'node:util';
import { relative } from 'node:path';
import { ScaffoldError, createConnector } from './create-connector.js';

/** Where the CLI writes. */
export interface CliIo {
  /** Writes one line of normal output. */
  readonly out: (line: string) => void;
  /** Writes one line of error output. */
  readonly err: (line: string) => void;
}

const HELP = `Usage: create-connector <directory> [--name <package-name>]

Creates a new Connector SDK connector project in <directory> (which must not exist or be empty), from the
issue-tracker example: a connector, a sample end system, tests and a lifecycle demo.

  --name <package-name>  the package name (default: the directory's name)
  --help                 show this help

With pnpm: pnpm create @connector-sdk/connector <directory>`;

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
      options: { name: { type: 'string' }, help: { type: 'boolean' } },
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
  try {
    const created = createConnector({
      directory,
      ...(values.name === undefined ? {} : { name: values.name }),
    });
    const where = relative(process.cwd(), created.directory) || '.';
    io.out(`Created ${created.name} in ${created.directory}

Next:
  cd ${where}
  npm install
  npm test
  npm start`);
    return 0;
  } catch (error) {
    if (error instanceof ScaffoldError) {
      io.err(`error: ${error.message}`);
      return 1;
    }
    throw error;
  }
}
