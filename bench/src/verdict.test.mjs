// How a budget is judged: the interval of the median of per-round ratios, and the three verdicts.
import { describe, expect, it } from 'vitest';
import { medianInterval, verdict } from './verdict.mjs';

describe('medianInterval', () => {
  it('takes the order statistics that hold the median with 90% confidence', () => {
    // 5 or 7 values: their least and greatest (a miss has probability 2/32 and 2/128).
    expect(medianInterval([1.3, 1.0, 1.2, 1.1, 1.4])).toEqual({
      median: 1.2,
      low: 1.0,
      high: 1.4,
      count: 5,
      dropped: 0,
      confident: true,
    });
    // 9 values: the second of each end (2·P(X ≤ 1) = 20/512; the third would miss with 92/512).
    const nine = [9, 1, 8, 2, 7, 3, 6, 4, 5];
    expect(medianInterval(nine)).toMatchObject({ median: 5, low: 2, high: 8 });
    // 11 values: the third of each end (2·P(X ≤ 2) = 134/2048).
    expect(medianInterval([...nine, 10, 11])).toMatchObject({ low: 3, high: 9 });
  });

  it('says when too few values reach no confidence', () => {
    expect(medianInterval([1, 2, 3, 4])).toMatchObject({ low: 1, high: 4, confident: false });
    // A value that is not a number is left out, and counted as left out.
    expect(medianInterval([1, Number.NaN, 2, 3, Infinity, 4, 5])).toMatchObject({
      count: 5,
      dropped: 2,
      confident: true,
    });
  });
});

describe('verdict', () => {
  it('passes a ceiling only when the whole interval is within it, fails it only when past', () => {
    expect(verdict({ low: 0.98, high: 1.09 }, 1.1, false)).toBe('pass');
    expect(verdict({ low: 1.05, high: 1.16 }, 1.1, false)).toBe('unclear');
    expect(verdict({ low: 1.11, high: 1.3 }, 1.1, false)).toBe('FAIL');
  });

  it('does the same for a floor (higher is better)', () => {
    expect(verdict({ low: 1.0, high: 1.2 }, 0.9, true)).toBe('pass');
    expect(verdict({ low: 0.85, high: 0.95 }, 0.9, true)).toBe('unclear');
    expect(verdict({ low: 0.7, high: 0.89 }, 0.9, true)).toBe('FAIL');
  });
});
