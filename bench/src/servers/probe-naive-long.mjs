// A probe, not a server of the full run (PROBES in servers.mjs): the naive server whose initialize answers the
// three entries the floor adds (the ids and the session's token) with placeholders of the same lengths and no
// MAC made, so that its answer is as long as the floor's. Against the naive server (`pnpm bench:pair --server
// probe-naive-long --against naive --scenarios initialize`) the ratio is what the longer answer alone costs.
import * as handWritten from '../hand-written.mjs';
import { getIssue, initialize } from '../naive.mjs';
import { start as startFloor } from './floor.mjs';

/** The token's parts as long as session-mac.mjs writes them: a key id of 8, a fingerprint of 22, a MAC of 43. */
const KEY_ID = 'k'.repeat(8);
const FINGERPRINT = 'f'.repeat(22);
const MAC = 'm'.repeat(43);

/** The naive initialize, its answer lengthened by the floor's three entries. */
function initializeLong(body, sdkSessionId, systemId) {
  const answer = initialize(body, sdkSessionId, systemId);
  if (answer.status !== 200) return answer;
  const issuedAt = Math.floor(Date.now() / 1000);
  const token = `1:${issuedAt}:${KEY_ID}:${FINGERPRINT}:authorization,x-acme-url,x-acme-user:${MAC}`;
  const added = JSON.stringify([
    { key: 'X-Sdk-System-Id', value: encodeURIComponent(systemId), sensitive: false },
    { key: 'X-Sdk-Session-Id', value: encodeURIComponent(sdkSessionId), sensitive: false },
    { key: 'X-Sdk-Session-Mac', value: token, sensitive: true },
  ]);
  // The naive answer is a JSON array: the added entries joined on without parsing it again.
  return { status: 200, body: `${answer.body.slice(0, -1)},${added.slice(1)}` };
}

/** @param {{ port: number }} options */
export function start(options) {
  return startFloor(options, { ...handWritten, getIssue, initialize: initializeLong });
}
