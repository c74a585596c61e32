import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { CassetteRecorder, readRequest } from './cassette-recorder.js';
import type { CassetteServer } from '../replay/replay-server.js';
import { announceReplayedCall, passOnFrom, stopPassingOn } from '../replayed-calls.js';

// A cassette recorded over HTTP, for a connector running in another process (the CLI's `--record`): a proxy on
// 127.0.0.1 that the configuration's end-system URL is pointed at, which passes each request on to the end
// system and records the exchange. It cannot see the connector's requests' secrets as the tap does: it
// scrubs the configuration's sensitive values, the sessions' (given by the CLI from initialize's answers),
// every credential header and credential-named query parameter, and refuses to write a cassette whose
// credential fields still hold anything else.

const HOP_BY_HOP = new Set([
  'host',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-length',
]);

async function bodyOf(message: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of message) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * Starts a proxy on 127.0.0.1 that records what passes through it to a cassette: the tap sees only calls made
 * in this process, and the CLI's `--record` serves a connector running in another.
 *
 * @param path - the cassette file
 * @param upstream - the end system's origin, such as `https://acme.example`
 * @param secrets - values to scrub besides credential headers and query parameters
 * @returns the proxy, as a cassette with its URL; `stop()` writes the recording
 * @internal
 */
export async function startRecordingProxy(
  path: string,
  upstream: string,
  secrets: readonly string[],
): Promise<CassetteServer> {
  const file = resolve(path);
  const recorder = new CassetteRecorder();
  const known = [...secrets];
  recorder.secrets(() => known);
  const server = createServer((message, reply) => {
    void (async () => {
      const headers = new Headers();
      for (const [name, value] of Object.entries(message.headers))
        if (value !== undefined && !HOP_BY_HOP.has(name))
          for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
      const method = message.method ?? 'GET';
      const body = await bodyOf(message);
      const request = new Request(`${upstream}${message.url ?? '/'}`, {
        method,
        headers,
        ...(body.length > 0 && method !== 'GET' && method !== 'HEAD' ? { body } : {}),
        redirect: 'manual',
      });
      const recorded = readRequest(request.clone());
      // The connector called the proxy, and logged that: the kit counts the call at the proxy's origin.
      announceReplayedCall(method, `${url}${message.url ?? '/'}`);
      const response = await fetch(request);
      recorder.record(recorded, response.clone());
      const answer: Record<string, string | string[]> = {};
      for (const [name, value] of response.headers)
        if (!HOP_BY_HOP.has(name) && name !== 'content-encoding') answer[name] = value;
      const cookies = response.headers.getSetCookie();
      if (cookies.length > 0) answer['set-cookie'] = cookies;
      reply.writeHead(response.status, answer).end(Buffer.from(await response.arrayBuffer()));
    })().catch(() => reply.destroy());
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  passOnFrom(url, upstream);
  let stopped: Promise<void> | undefined;
  return {
    mode: 'record',
    path: file,
    url,
    origins: [upstream],
    section: (name) => recorder.section(name),
    learn: (values) => known.push(...values),
    takeMismatches: () => [],
    stop: () =>
      (stopped ??= new Promise<void>((done) => {
        stopPassingOn(url, upstream);
        server.close(() => done());
        server.closeAllConnections();
      }).then(() => recorder.write(file))),
  };
}
