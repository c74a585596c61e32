// The minimal floor: raw node:http like floor.mjs, serving the minimal connector (entry shapes only, see
// minimal.mjs) for initialize and the later call, the two scenarios issue 18 bounds against it.
import { createServer } from 'node:http';
import { BASE } from '../scenarios.mjs';
import { getIssue, initialize, notFound } from '../minimal.mjs';
import { readJson } from './floor.mjs';

const headers = (body) => ({
  'content-type': 'application/json',
  'content-length': Buffer.byteLength(body),
});

async function route(request) {
  const url = request.url ?? '/';
  const mark = url.indexOf('?');
  const path = mark === -1 ? url : url.slice(0, mark);
  const query = new URLSearchParams(mark === -1 ? '' : url.slice(mark + 1));
  if (!path.startsWith(`${BASE}/`)) return notFound(request.method, path);
  const parts = path.slice(BASE.length + 1).split('/');
  if (request.method === 'POST' && parts.length === 2 && parts[0] === 'initialize') {
    const body = await readJson(request);
    return (
      body.failure ??
      initialize(body.value, decodeURIComponent(parts[1]), query.get('systemId') ?? undefined)
    );
  }
  if (request.method === 'GET' && parts.length === 2 && parts[0] === 'issues')
    return getIssue(
      request.headers,
      decodeURIComponent(parts[1]),
      query.get('fields') ?? undefined,
    );
  return notFound(request.method, path);
}

/** @param {{ port: number }} options */
export async function start({ port }) {
  const server = createServer((request, response) => {
    route(request).then(({ status, body }) => {
      response.writeHead(status, headers(body)).end(body);
    });
  });
  await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    port: server.address().port,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}
