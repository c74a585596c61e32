// A probe, not a server of the full run (PROBES in servers.mjs): the naive server whose initialize also makes
// the floor's two MACs, the configuration's fingerprint and the session's seal, and throws them away. Its
// answers are the naive server's, byte for byte, so that against it (`pnpm bench:pair --server
// probe-naive-macs --against naive --scenarios initialize`) the ratio is what the two MACs alone cost in a busy
// server: about 30 µs, where the same two MACs take 11-12 µs in a loop (docs/performance.md).
import * as handWritten from '../hand-written.mjs';
import { getIssue, initialize } from '../naive.mjs';
import { TOKEN } from '../scenarios.mjs';
import { fingerprint, seal } from '../session-mac.mjs';
import { start as startFloor } from './floor.mjs';

/** The last seal made: kept, so that no compiler could find the MACs unused. */
export let lastSeal = '';

/** The naive initialize, then the floor's two MACs over the same entries and session. */
function initializeWithMacs(body, sdkSessionId, systemId) {
  const answer = initialize(body, sdkSessionId, systemId);
  if (answer.status !== 200) return answer;
  const entries = body.filter(({ key }) => key !== 'suppressNotification');
  const value = (key) => entries.find((entry) => entry.key === key)?.value;
  const session = [
    { key: 'Authorization', value: `Bearer ${TOKEN}` },
    { key: 'X-Acme-Url', value: value('url') },
    { key: 'X-Acme-User', value: value('username') },
  ];
  lastSeal = seal({ systemId, sdkSessionId, configuration: fingerprint(entries) }, session);
  return answer;
}

/** @param {{ port: number }} options */
export function start(options) {
  return startFloor(options, { ...handWritten, getIssue, initialize: initializeWithMacs });
}
