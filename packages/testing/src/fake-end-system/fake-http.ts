import type { IncomingMessage, ServerResponse } from 'node:http';

const MAX_BODY_BYTES = 1024 * 1024;

/** What {@link readJson} answers for a body that is not JSON. */
export const INVALID = Symbol('invalid');
/** What it answers for a body over the limit. */
export const TOO_LARGE = Symbol('too large');

/**
 * Reads a JSON body of at most 1 MiB. Past that it stops reading (without destroying the socket), so the
 * caller can still answer 413.
 *
 * @internal
 */
export function readJson(req: IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) return void chunks.push(chunk);
      req.off('data', onData);
      req.pause();
      resolve(TOO_LARGE);
    };
    req.on('data', onData);
    req.once('error', reject);
    req.once('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      if (text.trim() === '') return resolve(undefined);
      try {
        resolve(JSON.parse(text) as unknown);
      } catch {
        resolve(INVALID);
      }
    });
  });
}

/** The fake's error body. @internal */
export function errorBody(
  code: string,
  message: string,
): { error: { code: string; message: string } } {
  return { error: { code, message } };
}

/** An answer of the fake: a JSON body, or none, and headers besides. @internal */
export interface FakeAnswer {
  readonly status: number;
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string>> | undefined;
}

/** Writes an answer. @internal */
export function reply(res: ServerResponse, answer: FakeAnswer): void {
  const { status, body, headers = {} } = answer;
  if (body === undefined) {
    res.writeHead(status, headers).end();
    return;
  }
  res
    .writeHead(status, { 'content-type': 'application/json', ...headers })
    .end(JSON.stringify(body));
}

/** Writes a JSON answer, or an empty one. @internal */
export function send(res: ServerResponse, status: number, body?: unknown): void {
  reply(res, { status, body });
}
