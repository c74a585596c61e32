// A budget's verdict from paired measurements. The servers a budget compares are measured together in each round,
// in alternating one-second turns (throughput.mjs), so each round gives one ratio; this virtual machine
// changes speed by up to 2x between minutes and within seconds, which moves both sides of a pair alike. The verdict judges the median of those
// per-round ratios with a distribution-free confidence interval (order statistics of the binomial, no
// assumption about how the noise is spread): a budget passes when the whole interval is within its limit,
// fails when the whole interval is past it, and is "unclear" otherwise, with the interval shown, so that a
// ratio within the noise of its limit neither passes nor fails by the weather.
import { median } from './stats.mjs';

/** The confidence asked of an interval: at least 90% that it holds the true median ratio. */
const CONFIDENCE = 0.9;

/** P(X ≤ k) for X ~ Binomial(n, 1/2). */
function binomialAtMost(k, n) {
  let term = 0.5 ** n;
  let sum = term;
  for (let i = 1; i <= k; i++) {
    term = (term * (n - i + 1)) / i;
    sum += term;
  }
  return sum;
}

/**
 * The median of some values and a confidence interval for it: the k-th smallest and k-th largest values, for
 * the largest k whose interval still holds the median with at least {@link CONFIDENCE} (for 5 or 7 values
 * their least and greatest, for 9 the second of each end). Fewer than 5 values cannot reach that confidence:
 * the interval is then the whole range, and says so.
 *
 * @param {number[]} values
 * @returns {{ median: number, low: number, high: number, count: number, dropped: number, confident: boolean }}
 *   `count` values judged, `dropped` left out for not being finite numbers
 */
export function medianInterval(values) {
  const sorted = [...values].filter(Number.isFinite).sort((a, b) => a - b);
  const n = sorted.length;
  const dropped = values.length - n;
  let k = 0;
  // The interval [x(k+1), x(n-k)] misses the median with probability 2·P(X ≤ k).
  while (k + 1 < n / 2 && 2 * binomialAtMost(k + 1, n) <= 1 - CONFIDENCE) k++;
  return {
    median: median(sorted),
    low: sorted[k],
    high: sorted[n - 1 - k],
    count: n,
    dropped,
    confident: n > 0 && 2 * binomialAtMost(0, n) <= 1 - CONFIDENCE,
  };
}

/**
 * The verdict on an interval against a limit.
 *
 * @param {{ low: number, high: number }} interval
 * @param {number} limit
 * @param {boolean} higherIsBetter - a floor (req/s ≥ limit) rather than a ceiling (CPU ≤ limit)
 * @returns {'pass' | 'FAIL' | 'unclear'}
 */
export function verdict({ low, high }, limit, higherIsBetter) {
  const within = higherIsBetter ? low >= limit : high <= limit;
  const past = higherIsBetter ? high < limit : low > limit;
  return within ? 'pass' : past ? 'FAIL' : 'unclear';
}

/**
 * A budget's verdict on an interval that may hold too few rounds for its confidence: never a firm verdict then.
 *
 * @param {{ low: number, high: number, confident: boolean }} interval
 * @param {number} limit
 * @param {boolean} higherIsBetter
 * @returns {'pass' | 'FAIL' | 'unclear'}
 */
export const judged = (interval, limit, higherIsBetter) =>
  interval.confident ? verdict(interval, limit, higherIsBetter) : 'unclear';
