import {
  createPlatformSimulator,
  type PlatformSimulatorOptions,
} from '../simulator/platform-simulator.js';
import { formatTranscriptEntry } from '../simulator/transcript.js';
import type { CliIo } from './cli-io.js';
import type { ParsedCall } from './parse-call.js';

/** What `simulate` walks the connector through, besides the simulator's own options. */
export interface SimulateOptions extends Omit<PlatformSimulatorOptions, 'onEntry'> {
  /** The calls made between initialize and cleanup. */
  readonly calls: readonly ParsedCall[];
  /** Whether cleanup asks to drop the system's cached data too. */
  readonly cleanupGlobalCache: boolean;
  /** Told the session's secrets once initialize has answered. @default nothing is told */
  readonly learn?: (secrets: readonly string[]) => void;
}

/**
 * Walks a running connector through its lifecycle — discover, initialize, each call, cleanup — printing the
 * transcript as it goes.
 *
 * @returns 0 when every step succeeded within the contract, 1 otherwise
 */
export async function simulateCommand(options: SimulateOptions, io: CliIo): Promise<number> {
  const { calls, cleanupGlobalCache, learn = () => undefined, ...simulator } = options;
  const platform = createPlatformSimulator({
    ...simulator,
    onEntry: (entry) => {
      for (const line of formatTranscriptEntry(entry)) io.out(line);
    },
  });
  const steps = 3 + calls.length;
  let step = 0;
  const failures: string[] = [];
  const run = async (
    title: string,
    expect: (status: number) => boolean,
    send: () => Promise<{ status: number; code: string | undefined }>,
  ) => {
    io.out(`\n[${++step}/${steps}] ${title}`);
    const { status, code } = await send();
    if (!expect(status))
      failures.push(`${title} ended with ${status}${code === undefined ? '' : ` ${code}`}`);
    return status;
  };
  await run(
    'discover',
    (status) => status === 200,
    () => platform.discover(),
  );
  const initialized = await run(
    'initialize',
    (status) => status === 200,
    async () => {
      const answer = await platform.initialize();
      // A cassette recorded through a proxy learns the session's secrets only from here.
      learn((platform.session ?? []).flatMap((entry) => (entry.sensitive ? [entry.value] : [])));
      return answer;
    },
  );
  if (initialized === 200) {
    for (const { request, expectStatus } of calls) {
      await run(
        `${request.method ?? 'GET'} ${request.path}${expectStatus === undefined ? '' : ` (expecting ${expectStatus})`}`,
        (status) => (expectStatus === undefined ? status < 400 : status === expectStatus),
        () => platform.call(request),
      );
    }
    await run(
      'cleanup',
      (status) => status === 200,
      () => platform.cleanup({ cleanupGlobalCache }),
    );
  }
  const exchanges = platform.transcript.filter((entry) => entry.type === 'exchange').length;
  if (failures.length > 0) {
    const skipped = steps - step;
    io.err(
      `\n✗ ${failures.length} of ${steps} steps failed${skipped > 0 ? ` (${skipped} not run: initialize failed)` : ''}:\n  - ${failures.join('\n  - ')}`,
    );
    return 1;
  }
  io.out(`\nEvery step succeeded; the connector kept the contract in ${exchanges} exchanges.`);
  return 0;
}
