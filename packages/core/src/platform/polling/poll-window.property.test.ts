// The platform polls an end system that stamps updates to the second while records change under it: between
// any two of its calls, records are updated and created. Whatever the interleaving, every update made before a
// walk starts is answered in that walk or a later one, and no walk answers one (id, update time) twice.
// FUZZ_RUNS=1000 for a deeper search than the default run.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isConnectorError } from '../../errors/connector-error.js';
import {
  LISTED_KEYS,
  LIST_KINDS,
  UpdatedSinceList,
  type ListedItem,
} from '../../../test/updated-since-list.js';
import { pollWindow } from './poll-window.js';

const RUNS = Math.min(Number(process.env.FUZZ_RUNS ?? 150), 1_000);
const T0 = Date.parse('2026-11-25T09:00:00.000Z');

/** One thing that happens in the end system: time passes, then maybe a record is created or updated. */
const step = fc.record({
  advanceMs: fc.integer({ min: 0, max: 1_500 }),
  change: fc.oneof(
    fc.constant({ kind: 'create' as const }),
    fc.record({ kind: fc.constant('update' as const), pick: fc.nat() }),
    fc.constant({ kind: 'none' as const }),
  ),
});

const scenario = fc.record({
  kind: fc.constantFrom(...LIST_KINDS),
  pageSize: fc.integer({ min: 1, max: 6 }),
  maxResults: fc.integer({ min: 1, max: 6 }),
  withUntil: fc.boolean(),
  ties: fc.constantFrom('oldest-first' as const, 'newest-first' as const),
  startMs: fc.integer({ min: 0, max: 999 }),
  initial: fc.integer({ min: 0, max: 15 }),
  steps: fc.array(step, { maxLength: 80 }),
  // How many steps happen at each pause between two of the platform's calls, in turn.
  bursts: fc.array(fc.integer({ min: 0, max: 4 }), { minLength: 1, maxLength: 20 }),
  polls: fc.integer({ min: 1, max: 5 }),
});

/** What one walk answered, and how many end-system changes had happened when it started. */
interface Walk {
  readonly changesBefore: number;
  readonly answered: Map<string, number>;
}

describe('pollWindow under changes', () => {
  it('misses no update and answers no (id, update time) twice in a walk, whatever changes between calls', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async (run) => {
        const list = new UpdatedSinceList({ now: T0 + run.startMs, ties: run.ties });
        for (let i = 0; i < run.initial; i++) {
          list.create();
          list.advance(700);
        }
        const steps = [...run.steps];
        let burst = 0;
        const apply = (count: number) => {
          for (let i = 0; i < count; i++) {
            const next = steps.shift();
            if (next === undefined) return;
            list.advance(next.advanceMs);
            if (next.change.kind === 'create') list.create();
            if (next.change.kind === 'update') {
              const ids = list.ids();
              if (ids.length > 0) list.update(ids[next.change.pick % ids.length] as string);
            }
          }
        };
        const pause = () => apply(run.bursts[burst++ % run.bursts.length] as number);
        const source = list.source(run.kind, run.pageSize);

        const walks: Walk[] = [];
        let lastPoll = T0 - 60_000;
        // The polls, then one more after every change has happened.
        for (let poll = 0; poll <= run.polls; poll++) {
          const final = poll === run.polls;
          if (final) apply(steps.length);
          const start = list.now;
          const since = lastPoll;
          const until = run.withUntil ? start : undefined;
          const walk: Walk = { changesBefore: list.changes.length, answered: new Map() };
          const seen = new Set<string>();
          let previous: ListedItem | undefined;
          let nextPageLink: string | undefined;
          for (let windows = 0; ; windows++) {
            expect(windows, 'a walk ends').toBeLessThan(1_000);
            const answer = await pollWindow(
              { since, until, maxResults: run.maxResults, nextPageLink },
              source,
              LISTED_KEYS,
            );
            expect(answer.items.length).toBeLessThanOrEqual(run.maxResults);
            for (const item of answer.items) {
              const pair = `${item.id}@${item.updated}`;
              expect(seen.has(pair), `${pair} answered twice in one walk`).toBe(false);
              seen.add(pair);
              expect(item.updated).toBeGreaterThanOrEqual(since - 1_000);
              if (until !== undefined) expect(item.updated).toBeLessThanOrEqual(until);
              // The walk goes on by key: each item after the last, by update time then id.
              if (previous !== undefined)
                expect(
                  item.updated > previous.updated ||
                    (item.updated === previous.updated && item.id > previous.id),
                ).toBe(true);
              previous = item;
              walk.answered.set(
                item.id,
                Math.max(walk.answered.get(item.id) ?? -Infinity, item.updated),
              );
            }
            nextPageLink = answer.nextPageLink;
            if (nextPageLink === undefined) break;
            if (!final) pause();
          }
          walks.push(walk);
          lastPoll = start;
          if (!final) pause();
        }

        // Every change is answered, in its version or a later one, by the first walk that started after it or
        // a later walk.
        list.changes.forEach((change, index) => {
          const first = walks.findIndex((walk) => walk.changesBefore > index);
          const answered = walks
            .slice(first)
            .some((walk) => (walk.answered.get(change.id) ?? -Infinity) >= change.updated);
          expect(answered, `${change.id}@${change.updated - T0} was missed`).toBe(true);
        });
      }),
      { numRuns: RUNS },
    );
  });

  it('answers or refuses with a 400 any text sent back as a link, and never fails otherwise', async () => {
    const list = new UpdatedSinceList({ now: T0 });
    for (let i = 0; i < 5; i++) list.create();
    const source = list.source('all');
    const json = fc
      .jsonValue()
      .map((value) => Buffer.from(JSON.stringify(value)).toString('base64url'));
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.string(), fc.base64String(), json), async (nextPageLink) => {
        try {
          await pollWindow({ since: T0, maxResults: 2, nextPageLink }, source, LISTED_KEYS);
        } catch (error) {
          expect(isConnectorError(error) && error.code === 'INVALID_PARAMETER').toBe(true);
        }
      }),
      { numRuns: RUNS },
    );
  });
});
