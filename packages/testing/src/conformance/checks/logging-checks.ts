import { logsNotVisible, type ConformanceCheck } from './check-helpers.js';
import { ConformanceFailure } from '../conformance-failure.js';
import type { ConformanceRun, RecordedExchange } from '../conformance-run.js';

// The SDK's end-system client writes one line per call, with `endSystem: { method, url, … }`, through the logger
// it was made with; made without the request's `log` (as when a copy of the context lost it: ARCHITECTURE.md,
// D13), it writes none.
// The calls themselves the kit sees in its own process (end-system-calls.ts), so it counts both, by method and
// origin: log lines may arrive late (a file) and may hide a path segment, but each call still has its line.

/** `METHOD origin` of each line that logs an end-system call; `undefined` when no line was JSON. */
function loggedCalls(lines: readonly string[]): Map<string, number> | undefined {
  const counts = new Map<string, number>();
  let json = false;
  for (const line of lines) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
      json = true;
    } catch {
      continue;
    }
    const call = (parsed as { endSystem?: { method?: unknown; url?: unknown; proxy?: unknown } })
      ?.endSystem;
    if (typeof call?.method !== 'string') continue;
    for (const url of [call.url, call.proxy]) {
      if (typeof url !== 'string' || !URL.canParse(url)) continue;
      const key = `${call.method.toUpperCase()} ${new URL(url).origin}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
  }
  return json ? counts : undefined;
}

/**
 * The calls of these exchanges that have no log line, by method and origin, with the platform requests that
 * made them; `undefined` when no line could be read.
 */
function unlogged(
  exchanges: readonly RecordedExchange[],
  logged: ReadonlyMap<string, number> | undefined,
): string[] | undefined {
  if (logged === undefined) return undefined;
  const made = new Map<string, { count: number; during: Set<string> }>();
  for (const { request, endSystemCalls } of exchanges)
    for (const call of endSystemCalls) {
      const key = `${call.method.toUpperCase()} ${call.origin}`;
      const entry = made.get(key) ?? { count: 0, during: new Set<string>() };
      entry.count++;
      entry.during.add(`${request.method} ${request.path}`);
      made.set(key, entry);
    }
  return [...made]
    .filter(([key, { count }]) => (logged.get(key) ?? 0) < count)
    .map(([key, { count, during }]) => {
      const requests = [...during];
      return `${count} call${count === 1 ? '' : 's'} ${key} (${logged.get(key) ?? 0} logged), while serving ${requests.slice(0, 3).join(', ')}${requests.length > 3 ? ` and ${requests.length - 3} more` : ''}`;
    });
}

/** A short lifecycle, so the check has calls to judge when it runs alone. */
async function provoke(run: ConformanceRun): Promise<void> {
  const platform = run.simulator();
  try {
    if ((await platform.initialize()).status !== 200) return;
    if (run.options.operation !== undefined) await platform.call(run.options.operation);
    await platform.cleanup();
  } catch {
    // A broken answer is the other checks' to judge; this one reads what was sent meanwhile.
  }
}

/** Every end-system call the connector makes shows in its log: one missing there, an operator cannot trace. */
export const endSystemLogCheck: ConformanceCheck = {
  id: 'logging.end-system-calls',
  name: 'every end-system call the connector makes is logged',
  async run(run) {
    const hidden = logsNotVisible(run);
    if (hidden) return hidden;
    await provoke(run);
    // A call the cassette could not answer fails the check that made it first; here it would only hide what
    // the log shows, and its hint (log with the request's logger) would point at the wrong cause.
    const mismatch = await run.cassette?.mismatch();
    if (mismatch !== undefined)
      return {
        skipped: `the cassette could not answer every call of the lifecycle, so its log was not judged: ${mismatch.message.split('\n')[0]}`,
      };
    const exchanges = run.exchanges.filter((exchange) => exchange.endSystemCalls.length > 0);
    if (exchanges.length === 0)
      return {
        skipped:
          'no end-system call was seen during the run: the kit sees the calls of a connector served in its own process (a connector or handler target, or a URL served by the test itself)',
      };
    const lines = run.logLines();
    if (lines.length === 0)
      return {
        skipped:
          'no log line arrived during the run, so nothing was checked: is the connector logging, and to that file?',
      };
    const missing = run.servesConnector
      ? // The kit's own lines arrive as they are written: each platform request is judged on its own.
        exchanges.flatMap(
          (exchange) => unlogged([exchange], loggedCalls(exchange.logLines) ?? new Map()) ?? [],
        )
      : unlogged(exchanges, loggedCalls(lines));
    if (missing === undefined)
      return {
        skipped:
          'no log line is JSON, so the kit cannot read the endSystem fields of the end-system calls',
      };
    if (missing.length > 0)
      throw new ConformanceFailure(
        `End-system calls left no log line:\n  - ${missing.join('\n  - ')}\n` +
          "Make the end-system client with the request's logger: createEndSystemClient({ baseUrl, signal, log }) " +
          'from the context, or pass the whole context on (`({ params, ...call }) => client(call)` keeps log and signal). ' +
          "Without it the calls are not logged, a platform disconnect does not cancel them, and the operator's egress option does not reach them.",
      );
    return undefined;
  },
};
