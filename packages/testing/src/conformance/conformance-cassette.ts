import type { CassetteMismatchError } from '../cassette/cassette-errors.js';
import { startCassette, type Cassette, type CassetteOptions } from '../cassette/start-cassette.js';

/**
 * The cassette of a conformance run (ARCHITECTURE.md, D23): started with the run's first check, a section per
 * check named by its id (so `describeConformance`, `runConformance` and the CLI read the same file),
 * stopped at the end.
 *
 * @internal
 */
export class ConformanceCassette {
  readonly #options: CassetteOptions | undefined;
  #cassette: Promise<Cassette> | undefined;

  /** @param options - the cassette's file or options, or a cassette started already (a replay server) */
  constructor(options: CassetteOptions | string | URL | Cassette) {
    if (typeof options === 'object' && 'section' in options) {
      this.#options = undefined;
      this.#cassette = Promise.resolve(options);
    } else {
      this.#options =
        typeof options === 'string' || options instanceof URL ? { path: options } : options;
    }
  }

  /** Starts the cassette if it is not yet, and names the check whose calls come next. */
  async begin(checkId: string): Promise<void> {
    const cassette = await (this.#cassette ??= startCassette(this.#options ?? { path: '' }));
    cassette.section(checkId);
  }

  /** The first request of the check that no recording answered, if any. */
  async mismatch(): Promise<CassetteMismatchError | undefined> {
    const cassette = await this.#cassette;
    return cassette?.takeMismatches()[0];
  }

  /** Hands a cassette served over HTTP the secrets of a session initialize answered. */
  async learn(values: readonly string[]): Promise<void> {
    const cassette = await this.#cassette;
    if (cassette && 'learn' in cassette && typeof cassette.learn === 'function')
      (cassette.learn as (values: Iterable<string>) => void)(values);
  }

  /** Stops it: writes a recording (or refuses to, naming the leak). */
  async stop(): Promise<void> {
    const cassette = this.#cassette;
    this.#cassette = undefined;
    await (await cassette)?.stop();
  }
}
