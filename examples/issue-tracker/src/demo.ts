// Starts the sample tracker and its connector, then drives the connector as the platform does, with the
// platform simulator from @connector-sdk/testing: initialize, later calls, a rate limit (403 + wait → resume),
// token expiry (401 → initialize again), a validation error, an unknown issue, cleanup. Each exchange is
// printed with secrets masked. Then it keeps serving; pass --once to stop after the walk-through.
import {
  createPlatformSimulator,
  formatTranscriptEntry,
  type CallRequest,
} from '@connector-sdk/testing';
import { closeOnSignal, printHowToCall, startSample } from './start-sample.js';

// Four calls per token every three seconds, so the walk-through meets the tracker's rate limit.
const sample = await startSample(
  { rateLimit: { limit: 4, windowMs: 3000 } },
  true,
);
const platform = createPlatformSimulator({
  target: sample.connector.url,
  config: {
    url: sample.tracker.url,
    username: 'alice',
    password: { value: 'wonderland', sensitive: true },
    options: '{"defaultProject":"DEMO"}',
  },
  systemId: 'demo-tracker',
  onEntry: (entry) => console.log(formatTranscriptEntry(entry).join('\n')),
});

const surprises: string[] = [];
async function step(
  title: string,
  expected: number,
  run: () => Promise<{ status: number }>,
) {
  console.log(`\n## ${title}`);
  const { status } = await run();
  if (status !== expected)
    surprises.push(`${title}: answered ${status}, expected ${expected}`);
}
const call = (request: CallRequest) => () => platform.call(request);

try {
  await step('discover', 200, () => platform.discover());
  await step('initialize: log in, answer the session', 200, () =>
    platform.initialize(),
  );
  await step(
    'create an issue',
    200,
    call({
      method: 'POST',
      path: '/projects/DEMO/issues',
      body: { summary: 'Printer on fire' },
    }),
  );
  await step(
    'comment on it',
    200,
    call({
      method: 'POST',
      path: '/issues/DEMO-1/comments',
      body: { text: 'Extinguisher found' },
    }),
  );
  await step(
    'list open issues',
    200,
    call({ path: '/projects/DEMO/issues', query: { status: 'open' } }),
  );
  await step('read it back', 200, call({ path: '/issues/DEMO-1' }));
  await step(
    'the tracker rate-limits: 403 + Retry-After, the platform waits, then resumes',
    200,
    call({ path: '/issues/DEMO-1' }),
  );
  sample.tracker.store.expireTokens();
  await step(
    'the token expired: 401, the platform initializes again and retries',
    200,
    call({ path: '/projects/DEMO/issues' }),
  );
  await step(
    'a validation error: an empty summary',
    400,
    call({
      method: 'POST',
      path: '/projects/DEMO/issues',
      body: { summary: ' ' },
    }),
  );
  await step('an unknown issue', 404, call({ path: '/issues/DEMO-99' }));
  await step('cleanup: log out', 200, () => platform.cleanup());
} catch (error) {
  surprises.push(error instanceof Error ? error.message : String(error));
}

if (surprises.length > 0) {
  console.error(`\nThe walk-through went wrong:\n- ${surprises.join('\n- ')}`);
  process.exitCode = 1;
}
if (process.argv.includes('--once') || surprises.length > 0) {
  await sample.close();
} else {
  printHowToCall(sample);
  closeOnSignal(sample);
}
