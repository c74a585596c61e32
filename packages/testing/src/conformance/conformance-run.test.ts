import { expect, it } from 'vitest';
import { createManualClock } from '../simulator/clock.js';
import { ConformanceRun } from './conformance-run.js';

// The round trips write "since" and "updated between" times from run.now(): epoch milliseconds, which the end
// system's own times are compared with. The system clock's now() counts from the process's start instead.

const target = 'http://127.0.0.1:9';

it('reads now as epoch milliseconds when the test gives no clock', () => {
  const before = Date.now();
  const now = new ConformanceRun({ target, config: {} }).now();
  expect(now).toBeGreaterThanOrEqual(before);
  expect(now).toBeLessThanOrEqual(Date.now());
});

it("reads now on the test's own clock when it gives one", () => {
  const clock = createManualClock(Date.UTC(2026, 0, 1));
  expect(new ConformanceRun({ target, config: {}, clock }).now()).toBe(Date.UTC(2026, 0, 1));
});
