import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  runConformance,
  scanCassette,
  type CassetteFile,
} from '@connector-sdk/testing';
import {
  CONFORMANCE_CASSETTE,
  nodeRedConformance,
  revokeAt,
} from './conformance-options.js';
import { startNodeRed } from './node-red.js';

// The recording side of the loop, where Node-RED is installed (it is a devDependency; a copy of this example
// without it skips): the conformance run recorded against a real Node-RED, into a temporary file, must be
// written (no secret survived scrubbing) and make the calls the committed cassette holds, in order, so a
// change in Node-RED or in the connector shows here before a stale replay hides it.
const installed = (() => {
  try {
    createRequire(import.meta.url).resolve('node-red/red.js');
    return true;
  } catch {
    return false;
  }
})();

/** Each test's calls, as `METHOD path`, without ids Node-RED makes up. */
function calls(file: CassetteFile): Record<string, string[]> {
  return Object.fromEntries(
    Object.entries(file.tests).map(([name, exchanges]) => [
      name,
      exchanges.map(
        ({ request, response }) =>
          `${request.method} ${request.url.replace(/^https?:\/\/[^/]+/, '').replace(/[0-9a-f]{16}/g, ':id')} ${response.status}`,
      ),
    ]),
  );
}

describe.skipIf(!installed)('the Node-RED conformance run, recorded', () => {
  it('records against a real Node-RED the calls the committed cassette replays, free of secrets', async () => {
    const nodeRed = await startNodeRed();
    const dir = mkdtempSync(join(tmpdir(), 'node-red-cassette-'));
    const path = join(dir, 'conformance.json');
    try {
      const results = await runConformance({
        ...nodeRedConformance(nodeRed, (authorization) =>
          revokeAt(nodeRed.url, authorization),
        ),
        cassette: { path, mode: 'record', secrets: [nodeRed.password] },
      });
      expect(results.filter((result) => result.status === 'failed')).toEqual(
        [],
      );
      expect(await scanCassette(path, [nodeRed.password])).toEqual([]);
      expect(readFileSync(path, 'utf8')).not.toContain(nodeRed.password);
      const fresh = JSON.parse(readFileSync(path, 'utf8')) as CassetteFile;
      const committed = JSON.parse(
        readFileSync(CONFORMANCE_CASSETTE, 'utf8'),
      ) as CassetteFile;
      expect(calls(fresh)).toEqual(calls(committed));
    } finally {
      await nodeRed.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
