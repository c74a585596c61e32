import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What a scripted end system answers; `hit` counts calls to the same path, from 1. */
export type EndSystemScript = (
  request: IncomingMessage,
  response: ServerResponse,
  hit: number,
) => void;

/** A real HTTP server on 127.0.0.1 standing in for an end system, answering as a test scripts it. */
export async function startEndSystem() {
  let script: EndSystemScript = (_request, response) => response.end('{}');
  const hits = new Map<string, number>();
  const server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0] ?? '/';
    const hit = (hits.get(path) ?? 0) + 1;
    hits.set(path, hit);
    script(request, response, hit);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    /** Sets how the end system answers from now on, and forgets earlier calls. */
    script(next: EndSystemScript) {
      script = next;
      hits.clear();
    },
    /** Calls received for a path. */
    hits: (path: string) => hits.get(path) ?? 0,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Answers JSON with a status and optional headers. */
export function json(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify(body));
}
