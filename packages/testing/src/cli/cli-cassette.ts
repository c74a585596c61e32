import { startRecordingProxy } from '../cassette/record/recording-proxy.js';
import { startReplayServer, type CassetteServer } from '../cassette/replay/replay-server.js';
import type { ConfigInput } from '../simulator/simulator-types.js';
import { pointConfig, sensitiveValues } from './replay-config.js';
import { UsageError } from './usage-error.js';

/** The first value of a configuration that is an http(s) URL: the end system the connector calls. */
function endSystemOrigin(config: ConfigInput): string | undefined {
  const values = Array.isArray(config)
    ? (config as Extract<ConfigInput, readonly unknown[]>).map((entry) => entry.value)
    : Object.values(config as Exclude<ConfigInput, readonly unknown[]>).map((value) =>
        typeof value === 'string' ? value : value.value,
      );
  for (const value of values)
    if (/^https?:\/\//i.test(value) && URL.canParse(value)) return new URL(value).origin;
  return undefined;
}

/**
 * The cassette of a CLI run (`--record` or `--replay`), served on 127.0.0.1 for a connector in another
 * process, and the configurations pointed at it.
 *
 * @param options - the two options' values, and every configuration of the run (the first is the valid one)
 * @returns the server, and a function that points a configuration at it; neither when no option is given
 * @throws UsageError when both are given, or a recording has no end-system URL in its configuration
 */
export async function cliCassette(options: {
  readonly record: string | undefined;
  readonly replay: string | undefined;
  readonly configs: readonly ConfigInput[];
}): Promise<{ server: CassetteServer | undefined; point: (config: ConfigInput) => ConfigInput }> {
  const { record, replay, configs } = options;
  if (record !== undefined && replay !== undefined)
    throw new UsageError('--record and --replay cannot both be given');
  const secrets = configs.flatMap(sensitiveValues);
  let server: CassetteServer | undefined;
  if (replay !== undefined) server = await startReplayServer(replay, { secrets });
  if (record !== undefined) {
    const origin = configs[0] === undefined ? undefined : endSystemOrigin(configs[0]);
    if (origin === undefined)
      throw new UsageError("--record needs the end system's http(s) URL in the configuration");
    server = await startRecordingProxy(record, origin, secrets);
  }
  return {
    server,
    point: (config) =>
      server === undefined ? config : pointConfig(config, server.origins, server.url),
  };
}
