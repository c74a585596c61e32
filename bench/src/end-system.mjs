// A fast local end system for the end-system scenario: answers GET /issues/:id with a small JSON record when the
// bearer token is right, and 401 otherwise. Runs as its own process, pinned beside the load generator.
import { createServer } from 'node:http';
import { TOKEN } from './scenarios.mjs';

const expected = `Bearer ${TOKEN}`;

/** Starts the end system on 127.0.0.1 and a free port. */
export async function start({ port }) {
  const server = createServer((request, response) => {
    const match = /^\/issues\/([^/?]+)(?:\?|$)/.exec(request.url ?? '');
    const status = request.headers.authorization !== expected ? 401 : match ? 200 : 404;
    const body =
      status === 200
        ? { id: match[1], summary: `Issue ${match[1]}`, status: 'open', labels: ['sync'] }
        : { code: status === 401 ? 'AUTH' : 'NOT_FOUND' };
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
  });
  server.keepAliveTimeout = 60_000;
  await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    port: server.address().port,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}
