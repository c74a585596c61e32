import { parseArgs } from 'node:util';
import { runConformance } from '../conformance/run-conformance.js';
import type { CallRequest } from '../platform-simulator.js';
import { createPlatformSimulator } from '../platform-simulator.js';
import { ContractViolationError, SimulatorError } from '../simulator-errors.js';
import { formatTranscriptEntry } from '../transcript.js';
import { UsageError, readConfigFile } from './read-config-file.js';

/** Where the CLI writes. */
export interface CliIo {
  /** Writes one line of normal output. */
  readonly out: (line: string) => void;
  /** Writes one line of error output. */
  readonly err: (line: string) => void;
}

const HELP = `Usage:
  connector-sdk-testing simulate --url <base> --config <file> [options]
      Walks a running connector through its lifecycle as the platform does: discover, initialize,
      each --call (re-initializing on 401, waiting on a rate-limit 403), cleanup. Secrets are masked.
  connector-sdk-testing conformance --url <base> --config <file> [options]
      Runs the contract conformance checks against a running connector.

Options:
  --url <base>                 the connector's base URL, such as http://127.0.0.1:3000
  --config <file>              a valid configuration: JSON entries [{ key, value, sensitive }] or an object
  --call "<METHOD> <path> [json]"  a later call after the base, such as "GET /issues/1" or
                               'POST /issues {"summary":"x"}' (repeatable; simulate)
  --operation "<METHOD> <path> [json]"  a later call that succeeds with a session (conformance)
  --invalid-config <file>      a configuration the connector must reject with 400 (conformance)
  --wrong-credentials <file>   a configuration with refused credentials, answered 401 (conformance)
  --system-id <id>             the end system's id (default system-1)
  --prefix <path>              what comes before /1.0 (default /sdk/api)
  --retry-after-header <name>  the header a rate-limit 403 announces its wait in (default Retry-After)
  --max-wait-ms <ms>           the longest wait the simulator accepts (default 60000)
  --cleanup-global-cache       send cleanupGlobalCache=true at cleanup
  --help                       show this help

Exit status: 0 when the connector kept the contract, 1 when it broke it or the lifecycle failed, 2 on a
usage error.`;

function parseCall(text: string): CallRequest {
  const match = /^([A-Za-z]+)\s+(\/\S*)(?:\s+(.+))?$/s.exec(text.trim());
  if (match?.[1] === undefined || match[2] === undefined)
    throw new UsageError(`"${text}" is not "<METHOD> <path> [json]", such as "GET /issues/1"`);
  const url = new URL(match[2], 'http://call');
  let body: unknown;
  if (match[3] !== undefined) {
    try {
      body = JSON.parse(match[3]);
    } catch {
      throw new UsageError(`the body of "${match[1]} ${match[2]}" is not valid JSON`);
    }
  }
  return {
    method: match[1].toUpperCase(),
    path: url.pathname,
    query: Object.fromEntries(url.searchParams),
    ...(body === undefined ? {} : { body }),
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
        call: { type: 'string', multiple: true },
        operation: { type: 'string' },
        'invalid-config': { type: 'string' },
        'wrong-credentials': { type: 'string' },
        'system-id': { type: 'string' },
        prefix: { type: 'string' },
        'retry-after-header': { type: 'string' },
        'max-wait-ms': { type: 'string' },
        'cleanup-global-cache': { type: 'boolean' },
        help: { type: 'boolean' },
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

/**
 * Runs the CLI: `simulate` walks a running connector through its lifecycle and prints a transcript with
 * secrets masked; `conformance` runs the contract checks.
 *
 * @param argv - the arguments after the program name
 * @param io - where to write
 * @returns the exit status: 0 kept the contract, 1 broke it or failed, 2 usage error
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
    if (values.url === undefined || !URL.canParse(values.url))
      throw new UsageError('--url <base> is required, such as http://127.0.0.1:3000');
    if (values.config === undefined) throw new UsageError('--config <file> is required');
    const calls = (values.call ?? []).map(parseCall);
    const config = await readConfigFile(values.config);
    const common = {
      target: values.url,
      config,
      ...(values['system-id'] === undefined ? {} : { systemId: values['system-id'] }),
      ...(values.prefix === undefined ? {} : { prefix: values.prefix }),
      ...(values['retry-after-header'] === undefined
        ? {}
        : { retryAfterHeader: values['retry-after-header'] }),
    };
    if (command === 'conformance') {
      const results = await runConformance(
        {
          ...common,
          ...(values['invalid-config'] === undefined
            ? {}
            : { invalidConfig: await readConfigFile(values['invalid-config']) }),
          ...(values['wrong-credentials'] === undefined
            ? {}
            : { wrongCredentials: await readConfigFile(values['wrong-credentials']) }),
          ...(values.operation === undefined ? {} : { operation: parseCall(values.operation) }),
        },
        {
          onResult: (result) => {
            const mark = { passed: '✓', failed: '✗', skipped: '-' }[result.status];
            io.out(
              `${mark} ${result.name}${result.status === 'skipped' ? ` (${result.message})` : ''}`,
            );
            if (result.status === 'failed')
              io.out(`    ${result.message?.replace(/\n/g, '\n    ')}`);
          },
        },
      );
      const failed = results.filter((result) => result.status === 'failed').length;
      const passed = results.filter((result) => result.status === 'passed').length;
      io.out(`${passed} passed, ${failed} failed, ${results.length - passed - failed} skipped`);
      return failed === 0 ? 0 : 1;
    }
    const maxWaitMs = values['max-wait-ms'] === undefined ? 60_000 : Number(values['max-wait-ms']);
    if (!Number.isFinite(maxWaitMs) || maxWaitMs < 0)
      throw new UsageError('--max-wait-ms must be a number of milliseconds');
    const platform = createPlatformSimulator({
      ...common,
      maxWaitMs,
      onEntry: (entry) => {
        for (const line of formatTranscriptEntry(entry)) io.out(line);
      },
    });
    const steps = 3 + calls.length;
    let step = 0;
    const heading = (what: string) => io.out(`\n[${++step}/${steps}] ${what}`);
    heading('discover');
    await platform.discover();
    heading('initialize');
    const initialized = await platform.initialize();
    if (initialized.status !== 200) {
      io.err(`initialize failed with ${initialized.status} ${initialized.code ?? ''}`);
      return 1;
    }
    for (const call of calls) {
      heading(`${call.method ?? 'GET'} ${call.path}`);
      await platform.call(call);
    }
    heading('cleanup');
    await platform.cleanup({ cleanupGlobalCache: values['cleanup-global-cache'] === true });
    const exchanges = platform.transcript.filter((entry) => entry.type === 'exchange').length;
    io.out(`\nThe connector kept the contract in ${exchanges} exchanges.`);
    return 0;
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
