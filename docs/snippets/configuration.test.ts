// The configuration guide's code, run as a real test.
import { createHandler } from '@connector-sdk/core';
import { expect, it } from 'vitest';

// #region fields
import { defineConnector, field, z } from '@connector-sdk/core';

const connector = defineConnector({
  name: 'acme',
  version: '1.0.0',
  config: {
    url: field.url(), // https://acme.example
    username: field.string({ maxLength: 64 }),
    // never echoed, always redacted
    password: field.secret(),
    project: field.string({
      pattern: /^[A-Z]+$/,
      patternDescription: 'upper-case letters',
    }),
    // empty counts as absent
    port: field.port().optional(),
    timeoutSeconds: field.integer({ min: 1, max: 300 }).default(30),
    // true/false, 1/0, yes/no, on/off
    verbose: field.boolean().default(false),
    edition: field.enum(['cloud', 'server']),
    options: field
      .json(z.object({ labels: z.array(z.string()).max(10) }))
      .optional(),
    region: z
      .string()
      .trim()
      .toLowerCase()
      .pipe(z.enum(['eu', 'us'])), // any zod schema reading a string
  },
  session: {},
  initialize({ config }) {
    config.timeoutSeconds satisfies number;
    config.options?.labels satisfies string[] | undefined;
    return {};
  },
});
// #endregion fields

it('answers one 400 naming every bad field, without any value', async () => {
  const handle = createHandler(connector);
  // #region invalid
  const entries = [
    { key: 'url', value: 'ftp://acme.example', sensitive: false },
    { key: 'username', value: 'alice', sensitive: false },
    { key: 'password', value: 'hunter2-secret', sensitive: true },
    { key: 'project', value: 'acme', sensitive: false },
    { key: 'port', value: '', sensitive: false },
    { key: 'timeoutSeconds', value: '900', sensitive: false },
    { key: 'edition', value: 'cloud', sensitive: false },
    { key: 'options', value: '{"labels": "x"}', sensitive: false },
    { key: 'region', value: 'EU', sensitive: false },
  ];
  // #endregion invalid
  const response = await handle({
    method: 'POST',
    path: '/sdk/api/1.0/initialize/s-1',
    query: { systemId: 'sys-1' },
    headers: {},
    body: entries,
  });
  expect(response.status).toBe(400);
  expect(JSON.parse(response.body)).toMatchInlineSnapshot(`
    {
      "errors": {
        "code": "INVALID_CONFIGURATION",
        "message": "The configuration is invalid: 'url' must use http: or https:; 'project' must match upper-case letters; 'timeoutSeconds' must be at most 300; 'options.labels': Invalid input: expected array, received string",
      },
    }
  `);
  expect(response.body).not.toContain('hunter2');
});
