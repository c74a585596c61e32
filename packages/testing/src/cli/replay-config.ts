import type { ConfigInput } from '../simulator/simulator-types.js';

/**
 * A configuration pointed at a replay server (`conformance --replay`): each value that starts with an origin
 * the cassette recorded calls to starts with the server's URL instead.
 *
 * @param config - the configuration as given
 * @param origins - the origins the recording called
 * @param url - the replay server's origin
 * @returns the configuration to initialize with
 */
export function pointConfig(
  config: ConfigInput,
  origins: readonly string[],
  url: string,
): ConfigInput {
  const point = (value: string) => {
    const origin = origins.find(
      (candidate) => value === candidate || value.startsWith(`${candidate}/`),
    );
    return origin === undefined ? value : `${url}${value.slice(origin.length)}`;
  };
  if (Array.isArray(config))
    return (config as Extract<ConfigInput, readonly unknown[]>).map((entry) => ({
      ...entry,
      value: point(entry.value),
    }));
  return Object.fromEntries(
    Object.entries(config).map(([key, value]) => [
      key,
      typeof value === 'string' ? point(value) : { ...value, value: point(value.value) },
    ]),
  );
}

/** The values a configuration marks sensitive: masked in a replay's mismatch messages. */
export function sensitiveValues(config: ConfigInput): string[] {
  const entries = Array.isArray(config)
    ? (config as Extract<ConfigInput, readonly unknown[]>)
    : Object.values(config as Exclude<ConfigInput, readonly unknown[]>).flatMap((value) =>
        typeof value === 'string' ? [] : [value],
      );
  return entries.filter((entry) => entry.sensitive).map((entry) => entry.value);
}
