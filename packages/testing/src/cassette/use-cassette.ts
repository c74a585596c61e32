import { afterAll, afterEach, beforeAll, beforeEach, type TestContext } from 'vitest';
import { startCassette, type Cassette, type CassetteOptions } from './start-cassette.js';

/**
 * The test whose end-system calls the cassette answers now. A cassette's section is the process's (core's tap
 * sees no test), so a second test that starts before the first ends is refused rather than answered from the
 * wrong section, as `describe.concurrent` would have it.
 */
let running: string | undefined;

/** A test's name with the names of the `describe`s around it (not the file's): `records > lists them`. */
function fullName(task: TestContext['task']): string {
  const names = [task.name];
  for (let suite = task.suite; suite !== undefined && !('filepath' in suite); suite = suite.suite)
    names.unshift(suite.name);
  return names.join(' > ');
}

/**
 * Records or replays the end system of every test in the current Vitest file or `describe` (see
 * `startCassette`): each test gets its own section of the cassette, named after it; a test whose request
 * found no recording fails with the closest recorded call and the difference; the recording is written after
 * the last test. Replays unless `CONNECTOR_SDK_RECORD` (or `mode`) says to record. Tests that use a cassette
 * run one at a time: a test that starts while another is running (`describe.concurrent`, `it.concurrent`)
 * fails with an error naming both, since the cassette could not tell their calls apart.
 *
 * @param options - the cassette file, or its options
 * @returns the cassette in use, once `beforeAll` has run
 * @example
 * ```ts
 * useCassette(new URL('./cassettes/acme.json', import.meta.url));
 *
 * it('lists issues', async () => {
 *   const platform = createPlatformSimulator({ target: connector, config });
 *   expect((await platform.call({ path: '/issues' })).status).toBe(200);
 * });
 * ```
 */
export function useCassette(options: CassetteOptions | string | URL): {
  readonly current: Cassette | undefined;
} {
  const holder: { current: Cassette | undefined } = { current: undefined };
  beforeAll(async () => {
    holder.current = await startCassette(
      typeof options === 'string' || options instanceof URL ? { path: options } : options,
    );
  });
  beforeEach((context) => {
    const name = fullName(context.task);
    if (running !== undefined)
      throw new Error(
        `useCassette: test "${name}" started while "${running}" was running. A cassette answers one test ` +
          "at a time (its section is the whole process's), so tests that use one cannot run concurrently: " +
          'drop describe.concurrent or it.concurrent around them.',
      );
    running = name;
    holder.current?.section(name);
  });
  afterEach((context) => {
    if (running !== fullName(context.task)) return;
    running = undefined;
    const [first] = holder.current?.takeMismatches() ?? [];
    if (first) throw first;
  });
  afterAll(async () => {
    const cassette = holder.current;
    holder.current = undefined;
    await cassette?.stop();
  });
  return holder;
}
