import { ParameterListSchema } from '@connector-sdk/core';
import { isCredentialKey } from '../../simulator/contract-rules.js';
import { SecretSet } from '../../secrets/secret-forms.js';
import { ConformanceFailure } from '../conformance-failure.js';
import {
  entriesWithProbe,
  initializeWith,
  logsNotVisible,
  type ConformanceCheck,
} from './check-helpers.js';
import type { ConformanceRun } from '../conformance-run.js';

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** Why a leak check has nothing to look for: no secret in any configuration or session answer. */
const NO_SECRET =
  'neither the configurations nor the session hold a sensitive value, so there is nothing that could leak: mark secrets sensitive in config';

/** The leaks found, or `undefined` when there is no secret to look for. */
function findLeaks(run: ConformanceRun, where: 'responses' | 'logs'): string[] | undefined {
  const secrets = new SecretSet();
  const isSecret = (entry: { key: string; sensitive: boolean }) =>
    entry.sensitive || isCredentialKey(entry.key);
  const config = run.simulator().config;
  secrets.addCompanions(config.filter((entry) => !isSecret(entry)).map((entry) => entry.value));
  for (const input of [
    run.options.config,
    run.options.invalidConfig,
    run.options.wrongCredentials,
  ]) {
    if (input === undefined) continue;
    for (const entry of run.simulator(input).config) if (isSecret(entry)) secrets.add(entry.value);
  }
  const answers = run.exchanges.map(({ request, response }) => ({
    request,
    response,
    list:
      response.status === 200 ? ParameterListSchema.safeParse(safeJson(response.text)) : undefined,
  }));
  for (const { list } of answers)
    if (list?.success === true)
      for (const entry of list.data) if (isSecret(entry)) secrets.add(entry.value);
  if (secrets.size === 0) return undefined;
  const leaks: string[] = [];
  if (where === 'logs') {
    run.logLines().forEach((line, index) => {
      if (secrets.leaksIn(line))
        leaks.push(`log line ${index + 1}: ${secrets.mask(line).slice(0, 200)}`);
    });
    return leaks;
  }
  for (const { request, response, list } of answers) {
    // A successful initialize carries the session's secrets by design, in entries marked sensitive.
    const visible =
      list?.success === true
        ? list.data.filter((entry) => !isSecret(entry)).map((entry) => entry.value)
        : [response.text];
    for (const text of [...visible, ...Object.values(response.headers)]) {
      if (secrets.leaksIn(text)) {
        leaks.push(`the answer to ${request.method} ${request.path} (${response.status})`);
        break;
      }
    }
  }
  return leaks;
}

/** Sends the requests whose error paths see the secrets, in case a leak check runs alone. */
async function provoke(run: ConformanceRun): Promise<void> {
  await run.simulator().initialize();
  const config = entriesWithProbe(run);
  await initializeWith(
    run,
    JSON.stringify([...config, ...config.filter((entry) => entry.sensitive)]),
  );
  await initializeWith(
    run,
    JSON.stringify(config.map((entry) => ({ ...entry, sensitive: 'yes' }))),
  );
  if (run.options.invalidConfig !== undefined)
    await run.simulator(run.options.invalidConfig).initialize();
  if (run.options.wrongCredentials !== undefined)
    await run.simulator(run.options.wrongCredentials).initialize();
}

function failOn(leaks: readonly string[] | undefined): { readonly skipped: string } | undefined {
  if (leaks === undefined) return { skipped: NO_SECRET };
  if (leaks.length > 0) {
    throw new ConformanceFailure(
      `A secret (or its URL-encoded, JSON-escaped or base64 form) leaked in:\n  - ${leaks.join('\n  - ')}\n` +
        'Mark secrets with field.secret() / secret(), and never put a credential into an error message.',
    );
  }
  return undefined;
}

/** No secret in any response, over everything the run recorded. */
export const secretsCheck: ConformanceCheck = {
  id: 'secrets.no-leak',
  name: 'no sensitive value, nor a derived form, appears in any response',
  async run(run) {
    await provoke(run);
    return failOn(findLeaks(run, 'responses'));
  },
};

/** No secret in any log line, when the kit can see the connector's log lines. */
export const logSecretsCheck: ConformanceCheck = {
  id: 'secrets.no-leak-in-logs',
  name: 'no sensitive value, nor a derived form, appears in any log line',
  async run(run) {
    const hidden = logsNotVisible(run);
    if (hidden) return hidden;
    await provoke(run);
    // An empty log proves nothing: a file the connector does not write to must not pass as clean.
    if (run.logLines().length === 0)
      return {
        skipped:
          'no log line arrived during the run, so nothing was checked: is the connector logging, and to that file?',
      };
    return failOn(findLeaks(run, 'logs'));
  },
};
