// An upload streams its body, and its first bytes must come within `bodyFirstBytesTimeoutMs` of its head, as
// any body's must: before, only the pause between two chunks was bounded (by `bodyTimeoutMs`, 30 s), so an
// upload that sent nothing held its request, its tenant's share and its place for that long. The test waits
// for the answer; it measures no time.
import { describe, expect, it } from 'vitest';
import { attachmentsConnector } from '../support/attachments-connector.js';
import { bindings, initializeSession, type Running } from '../support/bindings.js';
import { parseResponses, rawExchange, type RawResponse } from '../support/raw-http.js';

const entries = [{ key: 'url', value: 'https://files.example', sensitive: false }];

/** Sends an upload's head and `first` of its body, never the rest; answers the first answer. */
async function uploadThatStops(
  running: Running,
  session: Record<string, string>,
  first: string,
): Promise<RawResponse> {
  const { host } = new URL(running.origin);
  const head = [
    'POST /sdk/api/1.0/entities/issue/A-1/attachments?projectId=DEMO HTTP/1.1',
    `host: ${host}`,
    'content-type: multipart/form-data; boundary=b0und',
    'content-length: 100000',
    ...Object.entries(session).map(([name, value]) => `${name}: ${value}`),
  ].join('\r\n');
  const { responses } = await rawExchange(
    running.origin,
    (socket) => socket.write(`${head}\r\n\r\n${first}`),
    (received) => parseResponses(received).length > 0,
  );
  const [answer] = responses;
  if (answer === undefined) throw new Error('The server closed the connection without answering');
  return answer;
}

describe.each(bindings)('$name: an upload that sends nothing', (binding) => {
  it('is answered 408 once bodyFirstBytesTimeoutMs has passed, not after bodyTimeoutMs', async () => {
    const running = await binding.start(attachmentsConnector, {
      bodyFirstBytesTimeoutMs: 200,
      // Longer than the test's own timeout: an answer proves the first-bytes bound ended the wait.
      bodyTimeoutMs: 600_000,
    });
    try {
      const session = await initializeSession(running, entries);
      const answer = await uploadThatStops(running, session, '');
      expect(answer.status, answer.body).toBe(408);
      expect(JSON.parse(answer.body)).toMatchObject({
        errors: { code: 'REQUEST_TIMEOUT', message: expect.stringMatching(/sent no bytes/) },
      });
    } finally {
      await running.close();
    }
  });
});
