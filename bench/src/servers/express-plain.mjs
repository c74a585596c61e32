// Plain Express 5 with express.json(): the hand-written behaviour as an Express app, the usual way.
import express from 'express';
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
import { listen } from './listen.mjs';

const answer = (response, { status, body }) =>
  response.status(status).type('application/json').send(body);

/** @param {{ port: number }} options */
export function start({ port }) {
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  app.use(express.json({ limit: '1mb' }));
  app.post(`${BASE}/initialize/:sdkSessionId`, (request, response) => {
    const systemId =
      typeof request.query.systemId === 'string' ? request.query.systemId : undefined;
    answer(response, initialize(request.body, request.params.sdkSessionId, systemId));
  });
  app.get(`${BASE}/issues/:id`, (request, response) => {
    const fields = typeof request.query.fields === 'string' ? request.query.fields : undefined;
    answer(response, getIssue(request.headers, request.params.id, fields));
  });
  app.get(`${BASE}/entities/:id`, (request, response) => {
    const search = new URLSearchParams(request.originalUrl.split('?')[1] ?? '');
    answer(response, getEntity(request.headers, request.params.id, search));
  });
  app.get(`${BASE}/remote/:id`, async (request, response) => {
    const controller = new AbortController();
    response.once('close', () => response.writableFinished || controller.abort());
    answer(response, await getRemote(request.headers, request.params.id, controller.signal));
  });
  app.use((request, response) => answer(response, notFound(request.method, request.path)));
  app.use((error, _request, response, _next) =>
    answer(response, error.type === 'entity.too.large' ? tooLarge() : invalidJson()),
  );
  return listen(app, port);
}
