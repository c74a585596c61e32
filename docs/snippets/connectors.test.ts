// The connectors the guides define must work, not only type-check: each one initializes through the platform
// simulator (an initialize that answers 500 would otherwise ship in a guide).
import { createPlatformSimulator } from '@connector-sdk/testing';
import { expect, it } from 'vitest';
import { connector as endSystemClientGuide } from './end-system-client.js';
import { trackerConnector as platformOperationsGuide } from './platform-operations.js';

it.each([
  [
    'end-system-client.md',
    endSystemClientGuide,
    {
      url: 'https://acme.example',
      apiToken: { value: 'tok-1', sensitive: true },
    },
  ],
  [
    'platform-operations.md',
    platformOperationsGuide,
    {
      url: 'https://tracker.example',
      token: { value: 'tok-1', sensitive: true },
    },
  ],
] as const)(
  'the connector of %s initializes',
  async (_page, connector, config) => {
    const platform = createPlatformSimulator({ target: connector, config });
    const answer = await platform.initialize();
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  },
);
