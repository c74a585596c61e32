import { readFileSync } from 'node:fs';
import type { CassetteFile } from '@connector-sdk/testing';
import { afterAll, beforeAll } from 'vitest';
import { describeConformance } from '@connector-sdk/testing/vitest';
import {
  CONFORMANCE_CASSETTE,
  nodeRedConformance,
  revokeAt,
  type NodeRedAccount,
} from './conformance-options.js';
import { startNodeRed, type NodeRed } from './node-red.js';

// The conformance kit replayed from the cassette recorded against a real Node-RED: no Node-RED is started,
// every call is answered from test/cassettes/conformance.json, and each operation's answer is snapshotted, so
// a changed mapping shows as a snapshot diff. Re-record against a real Node-RED (started here) with
//   CONNECTOR_SDK_RECORD=1 pnpm vitest run test/replay.test.ts
const recording = !['', '0', 'false'].includes(
  process.env.CONNECTOR_SDK_RECORD?.trim() ?? '',
);

let nodeRed: NodeRed | undefined;
if (recording) {
  beforeAll(async () => {
    nodeRed = await startNodeRed();
  });
  afterAll(() => nodeRed?.close());
}

/**
 * Replaying, any account will do (the recording holds placeholders where its secrets were), at the origin the
 * recording called: a replay answers calls to the recorded origin only.
 */
const REPLAYED: NodeRedAccount = {
  url: recordedOrigin(),
  username: 'admin',
  password: 'replayed-password',
};

/** The origin of the cassette's first recorded call (the Node-RED the recording started, on a free port). */
function recordedOrigin(): string {
  const file = JSON.parse(
    readFileSync(CONFORMANCE_CASSETTE, 'utf8'),
  ) as CassetteFile;
  const first = Object.values(file.tests)[0]?.[0];
  return first === undefined
    ? 'http://127.0.0.1:1880'
    : new URL(first.request.url).origin;
}

// #region replay
describeConformance(
  () => ({
    ...nodeRedConformance(nodeRed ?? REPLAYED, async (authorization) => {
      if (nodeRed) await revokeAt(nodeRed.url, authorization);
    }),
    cassette: CONFORMANCE_CASSETTE,
  }),
  { title: 'the Node-RED connector, replayed', snapshots: !recording },
);
// #endregion replay
