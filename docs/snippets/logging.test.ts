// The logging guide's adapter writes the SDK's lines with the fields the guide lists.
import { expect, it } from 'vitest';
import { capturingHandler } from './logging.js';

it("writes one line per request through an adapted logger, with the guide's fields", async () => {
  const lines: { level: string; message: string; context: object }[] = [];
  const handle = capturingHandler(lines);
  await handle({ method: 'GET', path: '/sdk/api/1.0/notes', headers: {} });
  expect(lines).toEqual([
    {
      level: 'warn',
      message: 'request failed',
      context: expect.objectContaining({
        operation: 'listNotes',
        method: 'GET',
        status: 401,
        code: 'SESSION_MISSING',
        durationMs: expect.any(Number),
      }),
    },
  ]);
});
