import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorBodySchema } from '@connector-sdk/core';
import { bindings, type Running } from '../support/bindings.js';
import { configuration, connector } from '../support/fixture-connector.js';
import { parseResponses, rawRequest, request } from '../support/raw-http.js';

// On every binding that reads bodies itself (ARCHITECTURE.md, D15): the bytes of bodies being read at once are
// bounded (300 slow 1 MiB bodies held 300 MB until their 408s). Past the bound a body is a 503 the platform
// retries, and the binding serves again once the bodies in flight are done.
const BASE = '/sdk/api/1.0';
const KiB = 1024;

/** Opens an initialize that declares `length` bytes of body and sends only the first byte. */
function slowBody(
  origin: string,
  length: number,
): Promise<{ socket: Socket; answer: Promise<string> }> {
  const { port } = new URL(origin);
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const socket = connect(Number(port), '127.0.0.1', () => {
      socket.write(
        `POST ${BASE}/initialize/s?systemId=sys HTTP/1.1\r\nhost: a\r\n` +
          `content-type: application/json\r\ncontent-length: ${length}\r\n\r\n[`,
      );
      resolve({ socket, answer });
    });
    const answer = new Promise<string>((done) => {
      socket.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        const [response] = parseResponses(Buffer.concat(chunks));
        if (response) done(`${response.status} ${response.body}`);
      });
      socket.on('close', () => done(Buffer.concat(chunks).toString('latin1')));
      socket.on('error', () => undefined);
    });
  });
}

describe.each(bindings.filter((binding) => !binding.parserFirst))(
  '$name bounds the bodies it reads at once',
  (binding) => {
    let running: Running;
    beforeAll(async () => {
      // The default body timeout (30 s): the held body waits for the test, however slow the machine.
      running = await binding.start(connector, {
        port: 0,
        bodyLimit: 64 * KiB,
        maxBodyBytesInFlight: 100 * KiB,
      });
    });
    afterAll(() => running.close());

    it('answers 503 past maxBodyBytesInFlight, and serves again once the bodies in flight are done', async () => {
      // Two 60 KiB bodies of 100: whichever the server takes first is held, and the other does not fit. Which
      // one that is, is the server's to say (how soon it reads each head), so the first answer names it.
      const one = await slowBody(running.origin, 60 * KiB);
      const other = await slowBody(running.origin, 60 * KiB);
      const [refused, held] = await Promise.race([
        one.answer.then(() => [one, other] as const),
        other.answer.then(() => [other, one] as const),
      ]);
      const answer = await refused.answer;
      expect(answer.slice(0, 4)).toBe('503 ');
      expect(ErrorBodySchema.parse(JSON.parse(answer.slice(4))).errors.code).toBe(
        'SERVICE_UNAVAILABLE',
      );
      refused.socket.destroy();
      // The held one finishes (a body that is not JSON: 400), and gives its share back.
      held.socket.write(' '.repeat(60 * KiB - 1));
      expect((await held.answer).slice(0, 4)).toBe('400 ');
      held.socket.destroy();
      const again = await rawRequest(
        running.origin,
        request(
          'POST',
          `${BASE}/initialize/s-1?systemId=sys-1`,
          { 'content-type': 'application/json' },
          JSON.stringify(configuration),
        ),
      );
      expect(again.status).toBe(200);
    });
  },
);
