// Runs the polling connector of docs/platform-search.md against the fake tracker over HTTP on 127.0.0.1, through
// the platform simulator: issues change between the platform's windows, and the walk neither skips nor repeats.
import { createPlatformSimulator } from '@connector-sdk/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  TOKEN,
  startFakeTracker,
  trackerConfig,
  type FakeTracker,
} from './fake-tracker.js';
import { pollingConnector } from './polling.js';

let fake: FakeTracker;
let platform: ReturnType<typeof createPlatformSimulator>;
beforeAll(async () => {
  fake = await startFakeTracker();
  platform = createPlatformSimulator({
    target: pollingConnector,
    config: trackerConfig(fake),
  });
});
afterAll(() => fake.close());

/** Creates an issue in the tracker itself, as one of its users does. */
async function createIssue(summary: string): Promise<void> {
  const response = await fetch(`${fake.url}/issues`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${TOKEN}`,
      'content-type': 'application/json',
    },
    body: JSON.stringify({ summary }),
  });
  expect(response.status).toBe(201);
}

/** One window of the platform's poll between two times (the search's declared pattern). */
const pollWindow = (since: string, until: string, nextPageLink?: string) =>
  platform.call({
    method: 'POST',
    path: '/entities/issue/search',
    query: {
      projectId: 'P1',
      startIndex: '0',
      maxResults: '2',
      ...(nextPageLink === undefined ? {} : { nextPageLink }),
    },
    body: {
      query: {
        condition: 'AND',
        criterias: [
          { field: 'updated', condition: 'GREATER_THAN_EQUALS', value: since },
          { field: 'updated', condition: 'LESS_THAN_EQUALS', value: until },
        ],
      },
    },
  });

/** Walks a poll as the platform does, calling `between` after each window; answers `id@updated` per window. */
async function walk(
  since: string,
  until: string,
  between: (window: number) => void = () => {},
) {
  const windows: string[][] = [];
  let link: string | undefined;
  do {
    const { status, body } = await pollWindow(since, until, link);
    expect(status).toBe(200);
    const answer = body as {
      nextPageLink?: string;
      nextPageLinkSupported: boolean;
      entities: { fields: { id: string; updated: string } }[];
    };
    expect(answer.nextPageLinkSupported).toBe(true);
    windows.push(
      answer.entities.map(
        ({ fields }) => `${fields.id}@${fields.updated.slice(11, 19)}`,
      ),
    );
    link = answer.nextPageLink;
    between(windows.length);
  } while (link !== undefined);
  return windows;
}

it('walks the issues updated since the last poll without skipping one that another moved past', async () => {
  // I-1 … I-5, updated 09:01 … 09:05 (the fake's clock moves a minute per change).
  for (const summary of ['one', 'two', 'three', 'four', 'five'])
    await createIssue(summary);
  const windows = await walk(
    '2026-11-25T09:00:00.000+0000',
    '2026-11-25T10:00:00.000+0000',
    (n) => {
      // After the first window, I-1 is edited and moves to the end of the tracker's list: by position the second
      // window would start at I-4 and skip I-3.
      if (n === 1) fake.edit('I-1', { summary: 'one, edited' }, 'bob');
    },
  );
  expect(windows).toEqual([
    ['I-1@09:01:00', 'I-2@09:02:00'],
    ['I-3@09:03:00', 'I-4@09:04:00'],
    ['I-5@09:05:00', 'I-1@09:06:00'],
    [],
  ]);
});

it('answers an update stamped in the second of the poll time, which the overlap reads', async () => {
  // The tracker stamps this edit 09:10:00.000, though it happens after the platform's poll time 09:10:00.400.
  fake.freeze('2026-11-25T09:10:00.000Z');
  fake.edit('I-2', { summary: 'two, edited' }, 'bob');
  fake.freeze(undefined);
  const windows = await walk(
    '2026-11-25T09:10:00.400+0000',
    '2026-11-25T10:00:00.000+0000',
  );
  expect(windows.flat()).toEqual(['I-2@09:10:00']);
});

it('refuses a link it did not answer, or one sent with another poll, with a 400', async () => {
  const first = await pollWindow(
    '2026-11-25T09:00:00.000+0000',
    '2026-11-25T10:00:00.000+0000',
  );
  const link = (first.body as { nextPageLink: string }).nextPageLink;
  expect(
    await pollWindow(
      '2026-11-25T09:00:00.000+0000',
      '2026-11-25T10:00:00.000+0000',
      'x',
    ),
  ).toMatchObject({ status: 400, code: 'INVALID_PARAMETER' });
  expect(
    await pollWindow(
      '2026-11-25T09:30:00.000+0000',
      '2026-11-25T10:00:00.000+0000',
      link,
    ),
  ).toMatchObject({ status: 400, code: 'INVALID_PARAMETER' });
});
