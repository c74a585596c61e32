import { createServer } from 'node:http';
import { createHandler, defineConnector } from '@connector-sdk/core';
import { connector as full } from '../connector.mjs';
const trivial = defineConnector({
  name: 't',
  version: '1',
  config: {},
  session: {},
  initialize: () => ({}),
});
import { field, secret, z } from '@connector-sdk/core';
const Options = z.object({
  project: z.string(),
  pageSize: z.number().int().positive().max(500),
  labels: z.array(z.string()).optional(),
});
const config = {
  url: field.url(),
  username: field.string(),
  password: field.secret(),
  port: field.port().optional(),
  options: field.json(Options).optional(),
};
const session = {
  Authorization: field.secret(),
  'X-Acme-Url': field.url(),
  'X-Acme-User': field.string(),
};
const answer = () => ({
  Authorization: secret('Bearer tok-7f3c9a1e5b2d4c6e8f0a1b3c5d7e9f11'),
  'X-Acme-Url': 'http://127.0.0.1:9',
  'X-Acme-User': 'integration-bot',
});
const v = {
  configOnly: defineConnector({
    name: 't',
    version: '1',
    config,
    session: {},
    initialize: () => ({}),
  }),
  answerOnly: defineConnector({ name: 't', version: '1', config: {}, session, initialize: answer }),
  configNoUrlJson: defineConnector({
    name: 't',
    version: '1',
    config: {
      url: field.string(),
      username: field.string(),
      password: field.secret(),
      port: field.port().optional(),
      options: field.string().optional(),
    },
    session: {},
    initialize: () => ({}),
  }),
};
const handle = createHandler(
  process.env.V ? v[process.env.V] : process.env.TRIVIAL ? trivial : full,
);
export async function start({ port }) {
  const server = createServer((request, response) => {
    const chunks = [];
    request.on('data', (c) => chunks.push(c));
    request.on('end', () => {
      const url = request.url;
      const mark = url.indexOf('?');
      const text = Buffer.concat(chunks).toString();
      handle({
        method: request.method,
        path: mark === -1 ? url : url.slice(0, mark),
        query: mark === -1 ? undefined : url.slice(mark + 1),
        headers: request.headers,
        text: () => Promise.resolve(text),
      }).then((a) => {
        response
          .writeHead(a.status, { ...a.headers, 'content-length': Buffer.byteLength(a.body) })
          .end(a.body);
      });
    });
  });
  await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    port: server.address().port,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}
