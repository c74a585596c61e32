import { defineConnector, field, type ParameterEntry } from '@connector-sdk/core';
import { createEndSystemClient } from '@connector-sdk/core/http';

/**
 * A connector whose initialize logs in at `rest/login` of the URL it is configured with: a `url` field, judged
 * before connector code runs, or a `raw` string the client alone judges. `loggedIn` hears each URL connector code
 * was given: a refused one must never reach it.
 */
export function loginConnector(loggedIn: (url: string) => void = () => undefined) {
  return defineConnector({
    name: 'login',
    version: '1',
    config: { url: field.url().optional(), raw: field.string().optional() },
    session: {},
    async initialize({ config, log, signal }) {
      const url = config.url ?? (config.raw as string);
      loggedIn(url);
      await createEndSystemClient({ baseUrl: url, log, signal }).get('rest/login').json();
      return {};
    },
  });
}

/** The entry of a `url` field. */
export const url = (value: string): ParameterEntry => ({ key: 'url', value, sensitive: false });
/** The entry of a `raw` string. */
export const raw = (value: string): ParameterEntry => ({ key: 'raw', value, sensitive: false });
