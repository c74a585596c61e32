// The declarative tracker connector (src/) and the one written by hand (test/hand-written/) are two connectors
// for the same end system: run through the same conformance kit and the same platform session, each against a
// tracker of its own seeded alike on the same manual clock, they must answer the platform identically, call for
// call. The transcripts compared are the simulated platform's (secrets masked): every request and answer.
import {
  createManualClock,
  createPlatformSimulator,
  runConformance,
  type ConformanceResult,
  type TranscriptEntry,
} from '@connector-sdk/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { trackerConnector } from '../src/connector.js';
import {
  startTracker,
  type RunningTracker,
} from '../src/tracker/tracker-server.js';
import { handWrittenTrackerConnector } from './hand-written/connector.js';

type Connector = typeof trackerConnector | typeof handWrittenTrackerConnector;

/** The start of both runs' clocks: a fixed instant, so both trackers stamp their changes alike. */
const START = Date.UTC(2026, 11, 1, 9, 0, 0);

interface Run {
  readonly tracker: RunningTracker;
  readonly results: ConformanceResult[];
  readonly transcript: TranscriptEntry[];
}

const runs: Run[] = [];
afterAll(() => Promise.all(runs.map((run) => run.tracker.close())));

/**
 * One exchange as the comparison sees it: what the platform sent and what it got, without timings, the run's
 * own tracker address and the simulator's random session ids (numbered in order of appearance).
 */
function comparable(
  entry: TranscriptEntry,
  run: { readonly url: string; readonly sessions: Map<string, string> },
) {
  if (entry.type === 'wait') return entry;
  const { request, response, step, note, problems } = entry;
  const plain = (text: string) =>
    text
      .replaceAll(run.url, '<tracker>')
      .replace(/sdk-session-[0-9a-f-]{36}/g, (id) => {
        if (!run.sessions.has(id))
          run.sessions.set(id, `<session ${run.sessions.size + 1}>`);
        return run.sessions.get(id) ?? id;
      });
  const parsed = (body: string | undefined) => {
    if (body === undefined || body === '') return body;
    try {
      return JSON.parse(plain(body)) as unknown;
    } catch {
      return plain(body);
    }
  };
  return {
    step,
    note,
    problems,
    request: {
      method: request.method,
      url: plain(request.url),
      body: parsed(request.body),
    },
    response: { status: response.status, body: parsed(response.body) },
  };
}

/** The kit, then a platform session of its own, against a tracker seeded as the kit's checks need. */
async function runWith(target: Connector): Promise<Run> {
  const clock = createManualClock(START);
  const tracker = await startTracker({
    rateLimit: { limit: 3, windowMs: 60_000 },
    now: clock.now,
  });
  const first = tracker.store.createIssue(
    'DEMO',
    { summary: 'Seeded' },
    'bob',
  ).id;
  tracker.store.createIssue('DEMO', { summary: 'Seeded too' }, 'bob');
  tracker.store.updateIssue(first, { status: 'closed' }, 'bob');
  const transcript: TranscriptEntry[] = [];
  const config = {
    url: tracker.url,
    username: 'alice',
    password: { value: 'wonderland', sensitive: true },
    options: '{"defaultProject":"DEMO"}',
  };
  const results = await runConformance({
    target,
    config,
    invalidConfig: { ...config, options: '{"defaultProject": 42}' },
    wrongCredentials: {
      ...config,
      password: { value: 'not-wonderland', sensitive: true },
    },
    operation: { path: '/projects/DEMO/issues' },
    expireSession: () => tracker.store.expireTokens(),
    clock,
    platform: {
      roundTrip: {
        create: { summary: 'Round trip' },
        update: { summary: 'Changed' },
      },
    },
    onTranscriptEntry: (entry) => transcript.push(entry),
  });
  await platformSession(target, { config, clock, transcript, first });
  return { tracker, results, transcript };
}

/** What a sync does beyond the kit: polls by change time window by window, comments, history, archive. */
async function platformSession(
  target: Connector,
  run: {
    readonly config: Readonly<Record<string, unknown>>;
    readonly clock: ReturnType<typeof createManualClock>;
    readonly transcript: TranscriptEntry[];
    readonly first: string;
  },
) {
  const platform = createPlatformSimulator({
    target,
    config: run.config as never,
    clock: run.clock,
    onEntry: (entry) => run.transcript.push(entry),
  });
  const scope = {
    params: { entityTypeId: 'issue' },
    query: { projectId: 'DEMO' },
  };
  for (const summary of ['One', 'Two', 'Three']) {
    await platform.callOperation('createEntity', {
      ...scope,
      body: { fields: { summary } },
    });
    run.clock.advance(1_000);
  }
  const since = new Date(START).toISOString();
  await platform.readAll(
    'searchEntities',
    {
      ...scope,
      body: { query: { field: 'updated', condition: '>', value: since } },
    },
    { pageSize: 2 },
  );
  const byId = { ...scope, params: { ...scope.params, entityId: run.first } };
  await platform.callOperation('addComment', {
    ...byId,
    body: { body: 'From the platform' },
  });
  await platform.callOperation('getComments', {
    ...byId,
    query: {
      ...byId.query,
      startIndex: '0',
      maxResults: '10',
      afterTime: 'null',
    },
  });
  for (const orderByDirection of ['ASC', 'DESC'])
    for (const history of ['entityHistory', 'commentHistory'] as const)
      await platform.callOperation(history, {
        ...scope,
        query: {
          ...scope.query,
          since: '2026-12-01T00:00:00.000+0000',
          startIndex: '0',
          maxResults: '50',
          orderByDirection,
        },
      });
  await platform.callOperation('lookupValues', {
    params: { fieldId: 'status' },
    query: { projectId: 'DEMO', entityTypeId: 'issue' },
  });
  await platform.callOperation('deleteEntity', {
    ...byId,
    query: { ...byId.query, deletionType: 'ARCHIVE' },
  });
  await platform.callOperation('getEntity', {
    params: { entityId: run.first },
    query: { entityTypeId: 'issue', projectId: 'DEMO' },
  });
  await platform.cleanup();
}

beforeAll(async () => {
  // One after the other: the two runs must not share a moment of the machine's time or of the trackers'.
  runs.push(await runWith(trackerConnector));
  runs.push(await runWith(handWrittenTrackerConnector));
});

it('passes the same conformance checks as the hand-written connector, with the same outcomes', () => {
  const [declared, handWritten] = runs.map((run) =>
    run.results.map(({ id, status }) => [id, status]),
  );
  expect(declared).toEqual(handWritten);
  expect(
    runs[0]?.results.filter((result) => result.status === 'failed'),
  ).toEqual([]);
});

it('answers the platform exactly as the hand-written connector does, call for call', () => {
  const [declared, handWritten] = runs.map((run) => {
    const seen = { url: run.tracker.url, sessions: new Map<string, string>() };
    return run.transcript.map((entry) => comparable(entry, seen));
  });
  expect(declared?.length).toBeGreaterThan(100);
  expect(declared).toEqual(handWritten);
});
