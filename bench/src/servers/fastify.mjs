// Fastify 5, the fastest mainstream framework: the hand-written behaviour as Fastify routes, its own JSON
// body parser in front.
import Fastify from 'fastify';
import { BASE } from '../scenarios.mjs';
import {
  getEntity,
  getIssue,
  getRemote,
  initialize,
  invalidJson,
  notFound,
  tooLarge,
} from '../hand-written.mjs';

const answer = (reply, { status, body }) => reply.code(status).type('application/json').send(body);

/** @param {{ port: number }} options */
export async function start({ port }) {
  const app = Fastify({ bodyLimit: 1024 * 1024, logger: false });
  app.post(`${BASE}/initialize/:sdkSessionId`, (request, reply) =>
    answer(reply, initialize(request.body, request.params.sdkSessionId, request.query.systemId)),
  );
  app.get(`${BASE}/issues/:id`, (request, reply) =>
    answer(reply, getIssue(request.headers, request.params.id, request.query.fields)),
  );
  app.get(`${BASE}/entities/:id`, (request, reply) =>
    answer(
      reply,
      getEntity(
        request.headers,
        request.params.id,
        new URLSearchParams(request.url.split('?')[1] ?? ''),
      ),
    ),
  );
  app.get(`${BASE}/remote/:id`, async (request, reply) => {
    const controller = new AbortController();
    reply.raw.once('close', () => reply.raw.writableFinished || controller.abort());
    return answer(reply, await getRemote(request.headers, request.params.id, controller.signal));
  });
  app.setNotFoundHandler((request, reply) =>
    answer(reply, notFound(request.method, request.url.split('?')[0])),
  );
  app.setErrorHandler((error, _request, reply) =>
    answer(reply, error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' ? tooLarge() : invalidJson()),
  );
  await app.listen({ port, host: '127.0.0.1' });
  return { port: app.server.address().port, close: () => app.close() };
}
