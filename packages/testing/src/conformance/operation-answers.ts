import { SessionMasker } from '../simulator/session-masker.js';
import type { ConformanceRun } from './conformance-run.js';

/** Lifecycle routes, whose answers are sessions and acknowledgements rather than mapped data. */
const LIFECYCLE = /\/(initialize|cleanup)\/|\/discover$/;

/**
 * The answer of each later operation a conformance run called with success, first call of each request
 * only, by `METHOD path?query`, with the run's secrets (configuration and sessions) masked: what
 * `describeConformance`'s snapshots hold, so that a changed mapping shows as a snapshot diff.
 *
 * @param run - the run, after its checks
 * @returns each answer's body, parsed when it is JSON
 * @internal
 */
export function operationAnswers(run: ConformanceRun): Record<string, unknown> {
  const masker = new SessionMasker();
  const { config, invalidConfig, wrongCredentials } = run.options;
  for (const entries of [config, invalidConfig, wrongCredentials])
    if (entries !== undefined) masker.learn(run.simulator(entries).config);
  for (const { request, response } of run.exchanges)
    if (request.path.includes('/initialize/') && response.status === 200) {
      try {
        masker.learn(JSON.parse(response.text));
      } catch {
        // Not a session: nothing to learn.
      }
    }
  const answers: Record<string, unknown> = {};
  for (const { request, response } of run.exchanges) {
    if (LIFECYCLE.test(request.path) || response.status < 200 || response.status >= 300) continue;
    const query = new URLSearchParams(request.query).toString();
    const name = `${request.method} ${request.path}${query === '' ? '' : `?${query}`}`;
    if (name in answers) continue;
    const text = masker.text(response.text);
    try {
      answers[name] = JSON.parse(text) as unknown;
    } catch {
      answers[name] = text;
    }
  }
  return answers;
}
