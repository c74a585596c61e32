import { afterEach, describe, expect, it } from 'vitest';
import { BodyWatch, type WatchedBody } from './body-watch.js';

// Which body makes room for a newcomer that finds no request place (ARCHITECTURE.md, D27): only one asked for
// at least the grace time ago and that the binding accepts (a stranger's, for a stranger); the oldest that has
// sent nothing first, then one paused for the first-bytes time, then the oldest arriving. A body whose client
// went away makes no room: its connection gave its place back when it closed.

const watches: BodyWatch[] = [];
afterEach(() => {
  // The watch's timer runs while a body is in it: every body is finished by then.
  for (const watch of watches.splice(0)) expect(watch.size).toBe(0);
});

/**
 * A body, as a binding's reader is one, with its owner and how long ago it was asked for. Bodies are added in
 * the order they were asked for, as the watch sees them.
 */
function body(
  watch: BodyWatch,
  fields: { owner: string; askedMsAgo: number; received?: number; pausedMsAgo?: number },
) {
  const outcome: { error?: Error | undefined } = {};
  let gone = false;
  const read: WatchedBody & { outcome: typeof outcome; goAway(): void } = {
    owner: fields.owner,
    since: 0,
    lastBytesAt: 0,
    received: fields.received ?? 0,
    length: 1000,
    reserved: 0,
    previous: undefined,
    next: undefined,
    outcome,
    goAway: () => (gone = true),
    gone: () => gone,
    finish(error) {
      outcome.error = error;
      watch.remove(read);
    },
  };
  watch.add(read);
  const now = performance.now();
  read.since = now - fields.askedMsAgo;
  read.lastBytesAt = now - (fields.pausedMsAgo ?? fields.askedMsAgo);
  return read;
}

function makeWatch(): BodyWatch {
  const watch = new BodyWatch(30_000, 5_000);
  watches.push(watch);
  return watch;
}

const strangers = (owner: unknown) => owner !== 'platform';

describe('a body that makes room for a newcomer', () => {
  it('is the oldest silent one past the grace, never one asked for within it', () => {
    const watch = makeWatch();
    // Added oldest first, as bodies are asked for.
    const older = body(watch, { owner: 'stranger', askedMsAgo: 3_000 });
    const old = body(watch, { owner: 'stranger', askedMsAgo: 2_000 });
    const young = body(watch, { owner: 'stranger', askedMsAgo: 10 });
    expect(watch.refuseForPlace(250)).toBe(true);
    expect(older.outcome.error?.message).toMatch(/had not all come/);
    expect(old.outcome.error).toBeUndefined();
    expect(watch.refuseForPlace(250)).toBe(true);
    expect(old.outcome.error).toBeDefined();
    // Only the young one is left: within the grace, it makes no room.
    expect(watch.refuseForPlace(250)).toBe(false);
    expect(young.outcome.error).toBeUndefined();
    young.finish(undefined);
  });

  it("is only a stranger's for a stranger: a known caller's body stays", () => {
    const watch = makeWatch();
    const platform = body(watch, { owner: 'platform', askedMsAgo: 5_000 });
    expect(watch.refuseForPlace(250, strangers)).toBe(false);
    expect(platform.outcome.error).toBeUndefined();
    const stranger = body(watch, { owner: 'stranger', askedMsAgo: 1_000, received: 10 });
    expect(watch.refuseForPlace(250, strangers)).toBe(true);
    expect(stranger.outcome.error).toBeDefined();
    expect(platform.outcome.error).toBeUndefined();
    // For a known caller, any body.
    expect(watch.refuseForPlace(250)).toBe(true);
    expect(platform.outcome.error).toBeDefined();
  });

  it('prefers a silent body, then one paused for the first-bytes time, then the oldest arriving', () => {
    const watch = makeWatch();
    const steady = body(watch, { owner: 'a', askedMsAgo: 9_000, received: 10, pausedMsAgo: 100 });
    const paused = body(watch, { owner: 'b', askedMsAgo: 1_000, received: 10, pausedMsAgo: 6_000 });
    const silent = body(watch, { owner: 'c', askedMsAgo: 300 });
    watch.refuseForPlace(250);
    expect(silent.outcome.error).toBeDefined();
    watch.refuseForPlace(250);
    expect(paused.outcome.error).toBeDefined();
    watch.refuseForPlace(250);
    expect(steady.outcome.error).toBeDefined();
  });

  it('is never one whose client went away: that one is finished and makes no room', () => {
    const watch = makeWatch();
    const gone = body(watch, { owner: 'stranger', askedMsAgo: 5_000 });
    gone.goAway();
    expect(watch.refuseForPlace(250)).toBe(false);
    expect(gone.outcome.error?.message).toMatch(/cut off/);
  });
});
