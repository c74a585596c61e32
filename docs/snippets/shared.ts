// Stand-ins the snippets refer to, so that every snippet type-checks as a whole file.
import { defineConnector, field, silentLogger } from '@connector-sdk/core';

export const logger = silentLogger;

export interface AcmeConfig {
  readonly url: string;
  readonly username: string;
  readonly password: string;
}

export declare function login(config: AcmeConfig): Promise<string>;
export declare function fetchIssue(session: Record<string, unknown>, id: string): Promise<unknown>;

export const connector = defineConnector({
  name: 'snippet',
  version: '1.0.0',
  config: { url: field.url() },
  session: { 'X-Acme-Url': field.url(), Authorization: field.secret() },
  initialize: ({ config }) => ({ 'X-Acme-Url': config.url, Authorization: 'Bearer x' }),
});
