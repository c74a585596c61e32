import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { startEndSystem, type EndSystemScript } from '../../core/test/local-end-system.js';
import { startCassette, type Cassette } from '../src/index.js';

// What the tests of a recording's scrubbing share: an end system on 127.0.0.1 that answers as the test
// scripts it, and a folder of fresh cassettes, both gone after the file's tests.

/** The end system and cassettes of {@link useLocalRecording}. */
export interface LocalRecording {
  /** The end system's origin, such as `http://127.0.0.1:4711`; known once `beforeAll` has run. */
  readonly url: string;
  /** The folder the cassettes are written to. */
  readonly dir: string;
  /**
   * Starts recording a cassette of one section, `<dir>/<section>.json`.
   *
   * @param section - the cassette's only section, and its file's name
   * @returns the cassette, to `stop()` once the calls are made, and its file
   */
  record(section: string): Promise<{ readonly cassette: Cassette; readonly path: string }>;
}

/**
 * Registers the hooks that start an end system and a cassette folder before the file's tests and remove both
 * after them.
 *
 * @param name - a word for the folder's name
 * @param answer - how the end system answers each call
 * @returns the end system's URL and a way to record
 */
export function useLocalRecording(name: string, answer: EndSystemScript): LocalRecording {
  const dir = mkdtempSync(join(tmpdir(), `connector-sdk-${name}-`));
  let endSystem: Awaited<ReturnType<typeof startEndSystem>> | undefined;
  beforeAll(async () => {
    endSystem = await startEndSystem();
    endSystem.script(answer);
  });
  afterAll(async () => {
    await endSystem?.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return {
    get url() {
      if (endSystem === undefined) throw new Error('the end system starts in beforeAll');
      return endSystem.url;
    },
    dir,
    async record(section) {
      const path = join(dir, `${section}.json`);
      const cassette = await startCassette({ path, mode: 'record' });
      cassette.section(section);
      return { cassette, path };
    },
  };
}
