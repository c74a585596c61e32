// Before anything is timed: every server must give every scenario the answer the scenario expects, the same
// status and the same JSON body as the floor (only the same error code where a scenario says `sameMessage:
// false` or a server's `bodiesDiffer` names it), as application/json. Otherwise the servers would not be doing
// the same work and their figures could not be compared.
import { isDeepStrictEqual } from 'node:util';
import { serves } from './scenarios.mjs';

/**
 * The SDK's session entry carries its issue time and a MAC over it, which differ between two answers a second
 * apart: compare everything else of it (format, key id, configuration fingerprint, entries covered).
 */
function comparable(json) {
  if (!Array.isArray(json)) return json;
  return json.map((entry) =>
    entry?.key === 'X-Sdk-Session-Mac' && typeof entry.value === 'string'
      ? {
          ...entry,
          value: entry.value
            .split(':')
            .filter((_, index) => index !== 1 && index !== 5)
            .join(':'),
        }
      : entry,
  );
}

async function ask(port, { method, path, headers, body }) {
  const response = await fetch(`http://127.0.0.1:${port}${path}`, { method, headers, body });
  const text = await response.text();
  let json;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return {
    status: response.status,
    type: response.headers.get('content-type') ?? '',
    json: comparable(json),
    text,
  };
}

/**
 * @param {{ name: string, port: number, only?: readonly string[] }[]} servers - the floor first
 * @param {{ name: string, status: number }[]} scenarios
 * @returns {Promise<string[]>} every difference found
 */
export async function checkBehaviour(servers, scenarios) {
  const problems = [];
  for (const scenario of scenarios) {
    // A server measured on some scenarios only (`only`) is checked on those.
    const asked = servers.filter((server) => serves(server, scenario));
    const [floor, ...others] = await Promise.all(asked.map((server) => ask(server.port, scenario)));
    if (floor.status !== scenario.status)
      problems.push(
        `${scenario.name}: the floor answered ${floor.status}, not ${scenario.status}: ${floor.text}`,
      );
    for (const [index, answer] of [floor, ...others].entries()) {
      const name = asked[index].name;
      // The error code only, where the scenario or the server says the bodies differ (servers.mjs).
      const codeOnly =
        scenario.sameMessage === false ||
        asked[index].bodiesDiffer?.includes(scenario.name) === true;
      if (!answer.type.startsWith('application/json'))
        problems.push(`${scenario.name}: ${name} answered content-type '${answer.type}'`);
      if (
        index > 0 &&
        (answer.status !== floor.status ||
          !isDeepStrictEqual(
            codeOnly ? answer.json?.errors?.code : answer.json,
            codeOnly ? floor.json?.errors?.code : floor.json,
          ))
      )
        problems.push(
          `${scenario.name}: ${name} answered ${answer.status} ${answer.text}; the floor ${floor.status} ${floor.text}`,
        );
    }
  }
  return problems;
}
