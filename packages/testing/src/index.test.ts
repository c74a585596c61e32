import { expect, it } from 'vitest';
import * as entry from './index.js';
import * as vitestEntry from './vitest.js';

it('exports exactly the public API', () => {
  expect(Object.keys(entry).sort()).toMatchInlineSnapshot(`
    [
      "CassetteLeakError",
      "CassetteMismatchError",
      "ConformanceFailure",
      "ContractViolationError",
      "FakeEndSystem",
      "PlatformSimulator",
      "SimulatorError",
      "createManualClock",
      "createPlatformSimulator",
      "formatTranscriptEntry",
      "runCli",
      "runConformance",
      "scanCassette",
      "startCassette",
      "startFakeEndSystem",
      "systemClock",
    ]
  `);
  expect(Object.keys(vitestEntry).sort()).toMatchInlineSnapshot(`
    [
      "describeConformance",
      "useCassette",
    ]
  `);
});
