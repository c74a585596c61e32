import { closeSync, fstatSync, openSync, readSync, statSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { ContractViolationError, SimulatorError } from '../simulator/simulator-errors.js';
import type { CliIo } from './cli-io.js';
import { conformanceCommand } from './conformance-command.js';
import { parseCall } from './parse-call.js';
import { parsePlatformOperations } from './parse-platform-operations.js';
import { cliCassette } from './cli-cassette.js';
import { readConfigFile } from './read-config-file.js';
import { readRoundTripFile } from './read-round-trip-file.js';
import { shellExpireSession } from './shell-expire-session.js';
import { simulateCommand } from './simulate-command.js';
import { UsageError } from './usage-error.js';

export type { CliIo } from './cli-io.js';

const HELP = `Usage:
  connector-sdk-testing simulate --url <base> --config <file> [options]
      Walks a running connector through its lifecycle as the platform does: discover, initialize,
      each --call (re-initializing on 401, waiting on a rate-limit 403), cleanup. Secrets are masked.
  connector-sdk-testing conformance --url <base> --config <file> [options]
      Runs the contract conformance checks against a running connector.

Options:
  --url <base>                 the connector's base URL, such as http://127.0.0.1:3000
  --config <file>              a valid configuration: JSON entries [{ key, value, sensitive }] or an object
  --call "<METHOD> <path> [json] [=> status]"  a later call after the base, such as "GET /issues/1",
                               'POST /issues {"summary":"x"}' or "GET /issues/999 => 404" (repeatable;
                               simulate). Without "=> status" a call must end below 400
  --operation "<METHOD> <path> [json]"  a later call that succeeds with a session (conformance)
  --invalid-config <file>      a configuration the connector must reject with 400 (conformance)
  --record <file>              record the connector's end-system calls to a cassette: a proxy on 127.0.0.1
                               passes them on to the end system, and configuration values that start with
                               the end system's URL (the configuration's first http(s) URL) point there.
                               The configuration's and sessions' secrets, credential headers and query
                               parameters are scrubbed; a cassette still holding a credential is not written
  --replay <file>              answer the connector's end-system calls from a cassette, served on 127.0.0.1
                               where the configuration's recorded end-system URL is pointed; recorded with
                               the option above, or in a test (runConformance's cassette option with the
                               connector's URL as target). With either, the connector must be allowed to
                               reach loopback
  --log-file <file>            the connector's log, one line per entry: what it logs during the run is
                               checked for secrets and, for a connector served in this process, for a
                               line per end-system call (conformance; without it, only responses are)
  --wrong-credentials <file>   a configuration with refused credentials, answered 401 (conformance)
  --expire-session "<command>"  a shell command that makes the end system drop a session (revoke its token,
                               log it out), for the check that an expired session answers 401
                               (conformance). It gets each session entry as SESSION_<KEY> (upper-cased,
                               other characters as _: X-Records-Url -> SESSION_X_RECORDS_URL) and all of
                               them as JSON in SESSION_ENTRIES; its output is not shown unless it fails,
                               and then with secrets masked. Without it, that check is skipped
  --platform-operations <names>  the platform operations the connector serves, by catalog name and
                               comma-separated, each with =<path> when it moved off the catalog's path:
                               "connectorMetadata,serverInfo,entityHistory,projects=/v2/projects"
                               (repeatable; conformance). Without it, the platform checks are skipped
  --project-id <id>            the project the platform checks read history in (conformance; default: the
                               first the connector lists)
  --entity-type-id <id>        the entity type they read history of (conformance; default: the first listed)
  --entity-id <id>             an entity the read checks read (conformance; default: the one of the first
                               revision of that history)
  --round-trip <file>          lets the round-trip checks write to the end system: a JSON file
                               { "create": { fields }, "update": { fields } } (conformance; use a test project)
  --system-id <id>             the end system's id (default system-1)
  --prefix <path>              what comes before /1.0 (default /sdk/api)
  --retry-after-header <name>  the header a rate-limit 403 announces its wait in (default Retry-After)
  --retry-after-unit <unit>    seconds (default) or milliseconds
  --max-wait-ms <ms>           the longest wait the simulator accepts (default 60000; simulate)
  --cleanup-global-cache       send cleanupGlobalCache=true at cleanup (simulate)
  --help                       show this help

Exit status: 0 when every step succeeded within the contract; 1 when the connector broke the contract, could
not be reached, or a step failed (a call ending in 4xx/5xx, cleanup not 200); 2 on a usage error.`;

/**
 * The lines the connector logs from now on: the file's size is noted at the start, and each read takes only
 * what was added since (an old leak, already fixed, does not fail this run; a large log is not read whole).
 */
function logFrom(file: string): () => string[] {
  let start: number;
  try {
    start = statSync(file).size;
  } catch (error) {
    throw new UsageError(
      `--log-file ${file} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
    );
  }
  return () => {
    const fd = openSync(file, 'r');
    try {
      const length = Math.max(0, fstatSync(fd).size - start);
      const bytes = Buffer.alloc(Math.min(length, 64 * 1024 * 1024));
      readSync(fd, bytes, 0, bytes.length, start);
      return bytes
        .toString('utf8')
        .split('\n')
        .filter((line) => line.trim() !== '');
    } finally {
      closeSync(fd);
    }
  };
}

function readArgs(argv: readonly string[]) {
  try {
    return parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: {
        url: { type: 'string' },
        config: { type: 'string' },
        'log-file': { type: 'string' },
        replay: { type: 'string' },
        record: { type: 'string' },
        call: { type: 'string', multiple: true },
        operation: { type: 'string' },
        'invalid-config': { type: 'string' },
        'wrong-credentials': { type: 'string' },
        'expire-session': { type: 'string' },
        'platform-operations': { type: 'string', multiple: true },
        'project-id': { type: 'string' },
        'entity-type-id': { type: 'string' },
        'entity-id': { type: 'string' },
        'round-trip': { type: 'string' },
        'system-id': { type: 'string' },
        prefix: { type: 'string' },
        'retry-after-header': { type: 'string' },
        'retry-after-unit': { type: 'string' },
        'max-wait-ms': { type: 'string' },
        'cleanup-global-cache': { type: 'boolean' },
        help: { type: 'boolean' },
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

function retryAfterUnit(unit: string | undefined): 'seconds' | 'milliseconds' | undefined {
  if (unit === undefined || unit === 'seconds' || unit === 'milliseconds') return unit;
  throw new UsageError('--retry-after-unit must be seconds or milliseconds');
}

/**
 * Runs the CLI: `simulate` walks a running connector through its lifecycle and prints a transcript with
 * secrets masked; `conformance` runs the contract checks.
 *
 * @param argv - the arguments after the program name
 * @param io - where to write
 * @returns the exit status: 0 every step succeeded within the contract, 1 it did not, 2 usage error
 * @example
 * ```ts
 * process.exitCode = await runCli(process.argv.slice(2), { out: console.log, err: console.error });
 * ```
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  try {
    const { values, positionals } = readArgs(argv);
    const command = positionals[0];
    if (values.help === true || command === undefined) {
      io.out(HELP);
      return command === undefined && values.help !== true ? 2 : 0;
    }
    if (command !== 'simulate' && command !== 'conformance')
      throw new UsageError(`unknown command "${command}"; use simulate or conformance`);
    if (positionals.length > 1)
      throw new UsageError(`unexpected argument "${positionals[1] ?? ''}"`);
    const foreign =
      command === 'simulate'
        ? [
            'operation',
            'invalid-config',
            'wrong-credentials',
            'expire-session',
            'platform-operations',
            'project-id',
            'entity-type-id',
            'entity-id',
            'round-trip',
          ]
        : ['call', 'max-wait-ms', 'cleanup-global-cache'];
    for (const option of foreign)
      if (option in values) throw new UsageError(`--${option} does not apply to ${command}`);
    if (values.url === undefined || !URL.canParse(values.url))
      throw new UsageError('--url <base> is required, such as http://127.0.0.1:3000');
    if (values.config === undefined) throw new UsageError('--config <file> is required');
    const unit = retryAfterUnit(values['retry-after-unit']);
    const maxWait = values['max-wait-ms'];
    if (maxWait !== undefined && !/^\d+$/.test(maxWait))
      throw new UsageError('--max-wait-ms must be a whole number of milliseconds');
    const calls = (values.call ?? []).map(parseCall);
    const parsedOperation =
      values.operation === undefined ? undefined : parseCall(values.operation);
    if (parsedOperation?.expectStatus !== undefined)
      throw new UsageError('--operation is a call that succeeds; "=> status" belongs to --call');
    const operation = parsedOperation?.request;
    const common = {
      target: values.url,
      config: await readConfigFile(values.config),
      ...(values['system-id'] === undefined ? {} : { systemId: values['system-id'] }),
      ...(values.prefix === undefined ? {} : { prefix: values.prefix }),
      ...(values['retry-after-header'] === undefined
        ? {}
        : { retryAfterHeader: values['retry-after-header'] }),
      ...(unit === undefined ? {} : { retryAfterUnit: unit }),
    };
    const { server, point } = await cliCassette({
      record: values.record,
      replay: values.replay,
      configs: [
        common.config,
        ...(command === 'conformance' && values['wrong-credentials'] !== undefined
          ? [await readConfigFile(values['wrong-credentials'])]
          : []),
      ],
    });
    if (command === 'conformance') {
      const logFile = values['log-file'];
      const logLines = logFile === undefined ? undefined : logFrom(logFile);
      const invalid = values['invalid-config'];
      const wrong = values['wrong-credentials'];
      const expire = values['expire-session'];
      if (expire !== undefined && expire.trim() === '')
        throw new UsageError('--expire-session needs a shell command');
      const listed = values['platform-operations'];
      const platform = {
        ...(listed === undefined ? {} : parsePlatformOperations(listed)),
        ...(values['project-id'] === undefined ? {} : { projectId: values['project-id'] }),
        ...(values['entity-type-id'] === undefined
          ? {}
          : { entityTypeId: values['entity-type-id'] }),
        ...(values['entity-id'] === undefined ? {} : { entityId: values['entity-id'] }),
        ...(values['round-trip'] === undefined
          ? {}
          : { roundTrip: await readRoundTripFile(values['round-trip']) }),
      };
      try {
        return await conformanceCommand(
          {
            ...common,
            config: point(common.config),
            ...(server === undefined ? {} : { cassette: server }),
            ...(invalid === undefined
              ? {}
              : { invalidConfig: point(await readConfigFile(invalid)) }),
            ...(wrong === undefined
              ? {}
              : { wrongCredentials: point(await readConfigFile(wrong)) }),
            ...(operation === undefined ? {} : { operation }),
            ...(expire === undefined ? {} : { expireSession: shellExpireSession(expire) }),
            ...(logLines === undefined ? {} : { logLines }),
            ...(Object.keys(platform).length === 0 ? {} : { platform }),
          },
          io,
        );
      } finally {
        // Stopped here too: a connector that does not answer ends the command before any check.
        await server?.stop();
      }
    }
    try {
      return await simulateCommand(
        {
          ...common,
          config: point(common.config),
          maxWaitMs: maxWait === undefined ? 60_000 : Number(maxWait),
          calls,
          cleanupGlobalCache: values['cleanup-global-cache'] === true,
          learn: (secrets) => server?.learn(secrets),
        },
        io,
      );
    } finally {
      await server?.stop();
    }
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`error: ${error.message}\nRun with --help for usage.`);
      return 2;
    }
    if (error instanceof ContractViolationError || error instanceof SimulatorError) {
      io.err(`\n✗ ${error.message}`);
      return 1;
    }
    io.err(`\n✗ ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
}
