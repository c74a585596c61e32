import { connect, type Socket } from 'node:net';

/** One HTTP/1.1 response as read off a raw socket. */
export interface RawResponse {
  readonly status: number;
  /** Header names lower-cased; repeated headers joined with `, `. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** What a raw exchange produced: the responses in order, and the bytes the client managed to write. */
export interface RawExchange {
  readonly responses: RawResponse[];
  readonly written: number;
  /** Whether the server ended the connection, rather than the client (`until`, or its own 10 s limit). */
  readonly endedByServer: boolean;
}

/** Splits a byte stream into HTTP/1.1 responses (content-length or chunked bodies). */
export function parseResponses(data: Buffer): RawResponse[] {
  const responses: RawResponse[] = [];
  let at = 0;
  while (at < data.length) {
    const headEnd = data.indexOf('\r\n\r\n', at);
    if (headEnd === -1) break;
    const [statusLine = '', ...lines] = data.subarray(at, headEnd).toString('latin1').split('\r\n');
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      const name = line.slice(0, colon).trim().toLowerCase();
      const value = line.slice(colon + 1).trim();
      headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
    }
    let cursor = headEnd + 4;
    const parts: Buffer[] = [];
    if (/chunked/i.test(headers['transfer-encoding'] ?? '')) {
      for (;;) {
        const sizeEnd = data.indexOf('\r\n', cursor);
        if (sizeEnd === -1) break;
        const size = Number.parseInt(data.subarray(cursor, sizeEnd).toString('latin1'), 16);
        cursor = sizeEnd + 2;
        if (!(size > 0)) {
          cursor += 2;
          break;
        }
        parts.push(data.subarray(cursor, cursor + size));
        cursor += size + 2;
      }
    } else {
      const length = Number(headers['content-length'] ?? data.length - cursor);
      parts.push(data.subarray(cursor, cursor + length));
      cursor += length;
    }
    responses.push({
      status: Number(statusLine.split(' ')[1]),
      headers,
      body: Buffer.concat(parts).toString('utf8'),
    });
    at = cursor;
  }
  return responses;
}

/**
 * Opens a socket to `origin`, lets `talk` write to it, and collects everything the server sends until it
 * closes the connection (or `until` says enough was read, or 10 s pass).
 */
export function rawExchange(
  origin: string,
  talk: (socket: Socket) => void,
  until?: (received: Buffer) => boolean,
): Promise<RawExchange> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let written = 0;
    let endedByServer = false;
    const socket = connect(Number(port), hostname, () => talk(socket));
    const write = socket.write.bind(socket);
    socket.write = ((data: string | Uint8Array, ...rest: never[]) => {
      written += typeof data === 'string' ? Buffer.byteLength(data) : data.length;
      return write(data, ...rest);
    }) as typeof socket.write;
    const timer = setTimeout(() => socket.destroy(), 10_000);
    const done = () => {
      clearTimeout(timer);
      resolve({ responses: parseResponses(Buffer.concat(chunks)), written, endedByServer });
    };
    socket.on('data', (chunk) => {
      chunks.push(chunk);
      if (until?.(Buffer.concat(chunks))) socket.destroy();
    });
    // The server's FIN; a socket the client destroys first never emits it.
    socket.on('end', () => (endedByServer = true));
    socket.on('error', () => undefined);
    socket.on('close', done);
  });
}

/** Sends one complete request (with `connection: close`) and returns the single response. */
export async function rawRequest(origin: string, request: string | Buffer): Promise<RawResponse> {
  const { responses } = await rawExchange(origin, (socket) => socket.write(request));
  const [response] = responses;
  if (response === undefined) throw new Error('The server closed the connection without answering');
  return response;
}

/** The bytes of a request: `head` lines, then the body with its content-length unless one is given. */
export function request(
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body: string | Buffer = '',
): Buffer {
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  const all = {
    host: 'a',
    connection: 'close',
    'content-length': String(bytes.length),
    ...headers,
  };
  const head = Object.entries(all)
    .filter(([, value]) => value !== '')
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  return Buffer.concat([Buffer.from(`${method} ${path} HTTP/1.1\r\n${head}\r\n`, 'latin1'), bytes]);
}

/**
 * Sends `head` and then `body` before reading anything, as many clients do, and returns
 * what the server answered, or `failed: CODE` when the connection broke before any answer could be read (a
 * server that closes while the client is still writing makes the kernel reset the connection, and the unread
 * answer is lost).
 */
export function writeAllThenRead(origin: string, head: string, body: Buffer): Promise<string> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    socket.pause();
    const chunks: Buffer[] = [];
    let failed = '';
    const timer = setTimeout(() => socket.destroy(), 10_000);
    socket.on('error', (error: NodeJS.ErrnoException) => (failed ||= error.code ?? error.message));
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(
        failed && chunks.length === 0
          ? `failed: ${failed}`
          : Buffer.concat(chunks).toString('latin1'),
      );
    });
    socket.on('connect', () => {
      void (async () => {
        socket.write(head);
        for (let sent = 0; sent < body.length && !socket.destroyed; sent += 64 * 1024) {
          await new Promise<void>((done) =>
            socket.write(body.subarray(sent, sent + 64 * 1024), () => done()),
          );
        }
        socket.on('data', (data: Buffer) => chunks.push(data));
        socket.resume();
        socket.end();
      })();
    });
  });
}
