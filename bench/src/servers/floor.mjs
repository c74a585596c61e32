// The floor: the hand-written behaviour on raw node:http, with nothing between the socket and the code but a
// size-limited body read, JSON.parse and a split of the path. Everything else is measured against it.
import { createServer } from 'node:http';
import { BASE } from '../scenarios.mjs';
import * as handWritten from '../hand-written.mjs';

const { invalidJson, notFound, tooLarge } = handWritten;

const BODY_LIMIT = 1024 * 1024;
const headers = (body) => ({
  'content-type': 'application/json',
  'content-length': Buffer.byteLength(body),
});
const INTERNAL_ERROR = '{"errors":{"code":"INTERNAL_ERROR","message":"Internal error"}}';

function readJson(request) {
  return new Promise((resolve) => {
    if (Number(request.headers['content-length']) > BODY_LIMIT)
      return resolve({ failure: tooLarge() });
    const chunks = [];
    let size = 0;
    request.on('data', (chunk) => {
      size += chunk.length;
      if (size <= BODY_LIMIT) chunks.push(chunk);
    });
    request.on('end', () => {
      if (size > BODY_LIMIT) return resolve({ failure: tooLarge() });
      try {
        resolve({ value: JSON.parse(Buffer.concat(chunks, size).toString('utf8')) });
      } catch {
        resolve({ failure: invalidJson() });
      }
    });
  });
}

/** Routes to the behaviour's functions: the hand-written connector's, or the minimal one's. */
async function route(behaviour, request, response) {
  const { getEntity, getIssue, getRemote, initialize } = behaviour;
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
  if (request.method === 'GET' && parts.length === 2 && parts[0] === 'entities')
    return getEntity(request.headers, decodeURIComponent(parts[1]), query);
  if (request.method === 'GET' && parts.length === 2 && parts[0] === 'remote') {
    const controller = new AbortController();
    response.once('close', () => response.writableFinished || controller.abort());
    return getRemote(request.headers, decodeURIComponent(parts[1]), controller.signal);
  }
  return notFound(request.method, path);
}

/**
 * Serves a behaviour (hand-written.mjs by default) on raw node:http.
 *
 * @param {{ port: number }} options
 * @param {typeof handWritten} [behaviour]
 */
export async function start({ port }, behaviour = handWritten) {
  const server = createServer((request, response) => {
    route(behaviour, request, response).then(
      ({ status, body }) => {
        response.writeHead(status, headers(body)).end(body);
      },
      () => {
        response.writeHead(500, headers(INTERNAL_ERROR)).end(INTERNAL_ERROR);
      },
    );
  });
  await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    port: server.address().port,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}
