// `bodyTimeoutMs` means the same on every binding, whichever timer watches the body: below 1 is
// refused when the handler is made, and `Infinity`, or a timeout longer than a timer can keep, turns the timeout
// off for JSON bodies and uploads alike. Node fires a longer `setTimeout` after 1 ms, so such a value used to
// answer 408 to any upload that paused.
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { attachmentsConnector } from '../support/attachments-connector.js';
import { bindings, initializeSession, type Running } from '../support/bindings.js';
import { parseResponses, type RawResponse } from '../support/raw-http.js';
import { watchServers } from '../support/server-events.js';

const upload = Buffer.from(
  '--b0und\r\ncontent-disposition: form-data; name="fileName"\r\n\r\nraw.txt\r\n' +
    `--b0und\r\ncontent-disposition: form-data; name="file"; filename="raw.txt"\r\n\r\n${'x'.repeat(5000)}\r\n` +
    '--b0und--\r\n',
);
const entries = [{ key: 'url', value: 'https://files.example', sensitive: false }];

/**
 * Sends a head and its body in two parts, and answers the first answer. The pause between them starts once the
 * server has begun the request and Node has gone once around its event loop, so that a body timer the server
 * set meanwhile is already running when the pause's own timer is set: a timer that fires too soon (after 1 ms,
 * as Node fires one longer than it can keep) then always fires before the rest is sent, however slow the
 * machine.
 */
function sendInTwo(running: Running, head: readonly string[], body: Buffer): Promise<RawResponse> {
  const { host, port } = new URL(running.origin);
  const target = head[0]?.split(' ')[1];
  const servers = watchServers();
  return new Promise<RawResponse>((resolve, reject) => {
    const received: Buffer[] = [];
    const socket = connect(Number(port), '127.0.0.1', () => {
      socket.write(
        `${[...head, `host: ${host}`, `content-length: ${body.length}`].join('\r\n')}\r\n\r\n`,
      );
      socket.write(body.subarray(0, 5));
    });
    void servers
      .requested((url) => url === target)
      .then(() => new Promise((next) => setImmediate(next)))
      .then(() => setTimeout(() => socket.write(body.subarray(5)), 100));
    socket.on('data', (chunk: Buffer) => {
      received.push(chunk);
      const [answer] = parseResponses(Buffer.concat(received));
      if (answer) {
        socket.destroy();
        resolve(answer);
      }
    });
    socket.on('error', reject);
  }).finally(() => servers.stop());
}

describe.each(bindings)('$name: bodyTimeoutMs', (binding) => {
  it('refuses a timeout below 1 ms when the handler is made', async () => {
    for (const bodyTimeoutMs of [0, -1, Number.NaN]) {
      // Some bindings make the handler before their first await: either way, no server starts.
      const start = async () => binding.start(attachmentsConnector, { bodyTimeoutMs });
      await expect(start()).rejects.toThrow(/bodyTimeoutMs must be at least 1/);
    }
  });

  for (const bodyTimeoutMs of [Infinity, 3_000_000_000]) {
    it(`waits for a JSON body and an upload that pause, with ${bodyTimeoutMs}`, async () => {
      const running = await binding.start(attachmentsConnector, { bodyTimeoutMs });
      try {
        const initialize = await sendInTwo(
          running,
          [
            'POST /sdk/api/1.0/initialize/s?systemId=sys HTTP/1.1',
            'content-type: application/json',
          ],
          Buffer.from(JSON.stringify(entries)),
        );
        expect(initialize.status).toBe(200);
        const session = await initializeSession(running, entries);
        const answer = await sendInTwo(
          running,
          [
            'POST /sdk/api/1.0/entities/issue/A-1/attachments?projectId=DEMO HTTP/1.1',
            'content-type: multipart/form-data; boundary=b0und',
            ...Object.entries(session).map(([name, value]) => `${name}: ${value}`),
          ],
          upload,
        );
        expect(answer.status, answer.body).toBe(200);
      } finally {
        await running.close();
      }
    });
  }
});
