import { field } from '@connector-sdk/core';

/**
 * What the user fills in for a Node-RED: the admin root URL and an `adminAuth` user. The connector reads it
 * (`config` in connector.ts) and the platform's form shows it (connector metadata in platform-operations.ts),
 * from this one declaration, so the two cannot disagree.
 */
export const nodeRedConfig = {
  url: field.url(),
  username: field.string(),
  password: field.secret(),
};
