/**
 * The test kit: the platform simulator (`createPlatformSimulator`), the conformance checks as a function
 * (`runConformance`), the fake end system, a manual clock, and the CLI's `runCli`. The conformance checks as
 * Vitest tests are in `@connector-sdk/testing/vitest`.
 *
 * ```ts
 * import { createPlatformSimulator, startFakeEndSystem } from '@connector-sdk/testing';
 * ```
 *
 * @module
 * @mergeModuleWith <project>
 */
export { createManualClock, systemClock, type Clock, type ManualClock } from './simulator/clock.js';
export { runCli, type CliIo } from './cli/run-cli.js';
export type {
  CassetteBody,
  CassetteExchange,
  CassetteFile,
  CassetteHeaders,
  CassetteRequest,
  CassetteResponse,
} from './cassette/cassette-file.js';
export { CassetteLeakError, CassetteMismatchError } from './cassette/cassette-errors.js';
export type { CassetteMatchPart, CassetteMatcher } from './cassette/replay/replay-match.js';
export { scanCassette } from './cassette/scrub/scan-cassette.js';
export { startCassette, type Cassette, type CassetteOptions } from './cassette/start-cassette.js';
export { ConformanceFailure } from './conformance/conformance-failure.js';
export type { ConformanceOptions } from './conformance/conformance-run.js';
export type { RoundTripOptions } from './conformance/round-trips/round-trip-options.js';
export {
  runConformance,
  type ConformanceResult,
  type RunConformanceOptions,
} from './conformance/run-conformance.js';
export {
  FakeEndSystem,
  startFakeEndSystem,
  type FakeEndSystemOptions,
  type FakeRecord,
  type FakeRequestLog,
} from './fake-end-system/fake-end-system.js';
export type { FakeFault, FaultMatch } from './fake-end-system/fake-fault.js';
export {
  PlatformSimulator,
  createPlatformSimulator,
  type CallRequest,
  type ConfigInput,
  type PlatformSimulatorOptions,
  type RawRequest,
  type SimulatorResponse,
} from './simulator/platform-simulator.js';
export { ContractViolationError, SimulatorError } from './simulator/simulator-errors.js';
export type {
  PagedPlatformOperation,
  PlatformCallInput,
  PlatformParams,
  SimulatorAnswer,
} from './simulator/platform-calls.js';
export {
  formatTranscriptEntry,
  type ExchangeEntry,
  type TranscriptEntry,
  type TranscriptRequest,
  type TranscriptResponse,
  type WaitEntry,
} from './simulator/transcript.js';
export type { ConnectorTarget } from './simulator/transport.js';
