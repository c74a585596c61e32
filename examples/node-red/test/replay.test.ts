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
const recording = !['', '0', 'false'].includes(process.env.CONNECTOR_SDK_RECORD?.trim() ?? '');

let nodeRed: NodeRed | undefined;
if (recording) {
  beforeAll(async () => {
    nodeRed = await startNodeRed();
  });
  afterAll(() => nodeRed?.close());
}

/** Replaying, any account will do: the recording holds placeholders where its secrets were. */
const REPLAYED: NodeRedAccount = {
  url: 'http://127.0.0.1:1880',
  username: 'admin',
  password: 'replayed-password',
};

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
