// One load run with autocannon, in this process (the bench's own, pinned away from the server). Latencies are
// collected from every response at full precision: autocannon's own histogram keeps whole milliseconds, too
// coarse to compare p99s of 1-3 ms.
import autocannon from 'autocannon';

/**
 * @typedef {{ method: string, path: string, headers?: Record<string, string>, body?: string }} LoadRequest
 * @typedef {{ requests: number, seconds: number, rps: number, p50: number, p99: number,
 *   statuses: Record<string, number>, errors: number, timeouts: number }} LoadResult
 */

/** The `p`th percentile of ascending latencies. */
export const percentile = (sorted, p) =>
  sorted.length === 0
    ? NaN
    : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

/**
 * Sends requests to `url` over `connections` keep-alive connections, for `seconds` or `amount` requests.
 * `latencies`, when given, gathers every response's latency (ms) across runs, for percentiles over several.
 * `rate`, when given, holds the load to that many requests a second over all connections (autocannon's
 * `overallRate`), rather than as many as the server answers.
 *
 * @param {{ url: string, requests: LoadRequest[], connections: number, seconds?: number, amount?: number,
 *   latencies?: number[], rate?: number }} options
 * @returns {Promise<LoadResult>}
 */
export function runLoad({ url, requests, connections, seconds, amount, latencies = [], rate }) {
  const first = latencies.length;
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url,
        connections,
        pipelining: 1,
        // autocannon counts a duration in whole seconds: 0.25 runs for a second (see TURN_SECONDS in
        // throughput.mjs).
        ...(amount === undefined ? { duration: seconds } : { amount }),
        ...(rate === undefined ? {} : { overallRate: rate }),
        requests: requests.map(({ method, path, headers, body }) => ({
          method,
          path,
          headers: headers ?? {},
          ...(body === undefined ? {} : { body }),
        })),
      },
      (error, result) => {
        if (error) return reject(error);
        const sorted = Float64Array.from(latencies.slice(first)).sort();
        const statuses = {};
        for (const [status, { count }] of Object.entries(result.statusCodeStats))
          statuses[status] = count;
        const elapsed =
          (new Date(result.finish).getTime() - new Date(result.start).getTime()) / 1000;
        const completed = Object.values(statuses).reduce((sum, count) => sum + count, 0);
        resolve({
          requests: completed,
          seconds: elapsed,
          rps: completed / elapsed,
          p50: percentile(sorted, 50),
          p99: percentile(sorted, 99),
          statuses,
          errors: result.errors,
          timeouts: result.timeouts,
        });
      },
    );
    instance.on('response', (_client, _status, _bytes, responseTime) =>
      latencies.push(responseTime),
    );
  });
}

/**
 * Whether a run got only the statuses it should, with no socket errors or timeouts: a run that measured error
 * answers it did not mean to measure is no measurement.
 *
 * @param {LoadResult} result
 * @param {readonly number[]} allowed - the statuses the scenario answers
 * @returns {string | undefined} what went wrong
 */
export function loadProblem(result, allowed) {
  const unexpected = Object.entries(result.statuses).filter(
    ([status]) => !allowed.includes(Number(status)),
  );
  if (result.requests === 0) return 'no request completed';
  if (unexpected.length > 0)
    return `unexpected statuses: ${unexpected.map(([status, count]) => `${count}× ${status}`).join(', ')}`;
  if (result.errors > 0 || result.timeouts > 0)
    return `${result.errors} errors, ${result.timeouts} timeouts`;
  return undefined;
}
