/**
 * Reading `multipart/form-data` uploads (RFC 7578) as they arrive. Written here, not taken from a library,
 * because `@fastify/busboy` 3.2 (the maintained busboy), tried behind this same reader, reads what an upload
 * must refuse, with no error to answer 400 with: it passes on a part whose header line holds a bare CR (dropping
 * that line), skips a part without `Content-Disposition` or after a boundary followed by text, loses a value
 * that starts like the boundary, and cuts part headers over its limit short. It pushes parts as events where the
 * handler pulls the file as a stream, and cost more CPU even so: in process, per upload, 15-22 µs against
 * 11-16 µs for a 2 KiB file, 2.1-2.3 ms against 1.5-1.7 ms for 500 fields, about the same for a 5 MiB file, and
 * the same peak memory reading 256 MiB.
 */
import { ConnectorError } from '../errors/connector-error.js';
import { ValidationError } from '../errors/errors.js';

/** What a `multipart/form-data` part says about itself in its headers. */
export interface PartHead {
  /** The form field's name (`Content-Disposition: form-data; name="…"`). */
  readonly name: string;
  /** The file name the sender gave (`filename="…"` or `filename*=UTF-8''…`), for a file part. */
  readonly fileName: string | undefined;
  /** The part's `Content-Type`, when it has one. */
  readonly contentType: string | undefined;
  /** The part's `Content-Transfer-Encoding`, lower-case, when it has one (`base64`). */
  readonly transferEncoding: string | undefined;
}

/** Bounds of a {@link MultipartReader}. @internal */
export interface MultipartLimits {
  /** Most bytes of the whole body. */
  readonly maxBytes: number;
  /** Most parts. */
  readonly maxParts: number;
  /** Most bytes of one part's header block. */
  readonly maxHeaderBytes: number;
}

const CRLF = Buffer.from('\r\n');
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
// eslint-disable-next-line no-control-regex -- control characters are what it finds
const CONTROL = /[\x00-\x08\x0a-\x1f\x7f]/;
/** A media type, as a part's Content-Type must be to be passed on; anything else is taken as bytes. */
const MEDIA_TYPE =
  /^[!#$%&'*+.^_`|~0-9A-Za-z-]+\/[!#$%&'*+.^_`|~0-9A-Za-z-]+(?:\s*;\s*[^;\s=]+=(?:[^;\s"]+|"[^"]*"))*$/;
/** Most bytes after the closing boundary read and thrown away, so that the request ends and its connection is kept. */
const MAX_EPILOGUE = 4096;
const HEADER_END = Buffer.from('\r\n\r\n');
const BOUNDARY = /^[0-9A-Za-z'()+_,\-./:=? ]{0,69}[0-9A-Za-z'()+_,\-./:=?]$/;

/**
 * The boundary of a `multipart/form-data` content type (RFC 2046 §5.1.1), or `undefined` when the type is
 * another or has no valid boundary.
 *
 * @internal
 */
export function multipartBoundary(contentType: string | undefined): string | undefined {
  const match = /^\s*multipart\/form-data\s*;(.*)$/is.exec(contentType ?? '');
  if (!match) return undefined;
  const parameter = /(?:^|;)\s*boundary\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;\s]+))/i.exec(
    match[1] as string,
  );
  const boundary = parameter?.[1]?.replace(/\\(.)/g, '$1') ?? parameter?.[2];
  return boundary !== undefined && BOUNDARY.test(boundary) ? boundary : undefined;
}

const malformed = (message: string) =>
  new ValidationError(`The multipart body is malformed: ${message}`, {
    code: 'INVALID_MULTIPART',
  });

/** The parameters of a `Content-Disposition` value: `name`, `filename`, `filename*` (RFC 5987, UTF-8). */
function dispositionParameters(value: string): Map<string, string> {
  const parameters = new Map<string, string>();
  const pattern = /;\s*([^\s=;]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]*))/g;
  for (const match of value.matchAll(pattern)) {
    const name = (match[1] as string).toLowerCase();
    let text = match[2]?.replace(/\\(.)/g, '$1') ?? (match[3] as string).trim();
    if (name === 'filename*') {
      const extended = /^utf-8'[^']*'(.*)$/i.exec(text);
      if (!extended) continue;
      try {
        text = decodeURIComponent(extended[1] as string);
      } catch {
        continue;
      }
    }
    if (!parameters.has(name)) parameters.set(name, text);
  }
  return parameters;
}

function parseHead(block: Buffer): PartHead {
  const text = block.toString('utf8');
  const headers = new Map<string, string>();
  for (const line of text.split('\r\n')) {
    if (line === '') continue;
    const colon = line.indexOf(':');
    if (colon <= 0 || !HEADER_NAME.test(line.slice(0, colon)))
      throw malformed('a part has a header line without a valid name');
    // A line break or other control character inside a value could become a header of its own where
    // connector code passes the value on (to an end system's upload).
    if (CONTROL.test(line)) throw malformed('a part header holds a control character');
    headers.set(line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim());
  }
  const disposition = headers.get('content-disposition');
  if (disposition === undefined || !/^form-data\s*(?:;|$)/i.test(disposition))
    throw malformed('a part has no Content-Disposition: form-data header');
  const parameters = dispositionParameters(disposition);
  const name = parameters.get('name');
  if (name === undefined || name === '') throw malformed('a part has no name');
  return {
    name,
    fileName: parameters.get('filename*') ?? parameters.get('filename'),
    contentType: MEDIA_TYPE.test(headers.get('content-type') ?? '')
      ? headers.get('content-type')
      : undefined,
    transferEncoding: headers.get('content-transfer-encoding')?.toLowerCase(),
  };
}

/**
 * Reads a `multipart/form-data` body part by part as it arrives, without holding more than one chunk and a
 * partial boundary of it: {@link nextPart} moves to the next part's head, {@link readChunk} gives the current
 * part's bytes. Every bound is checked as the bytes come: the whole body's size, the number of parts and the
 * size of each part's headers.
 *
 * @internal
 */
export class MultipartReader {
  readonly #source: AsyncIterator<Uint8Array>;
  readonly #limits: MultipartLimits;
  /** `\r\n--boundary`: the body is read as if it began with a line break, so the first boundary is no special case. */
  readonly #delimiter: Buffer;
  #buffer: Buffer = CRLF;
  #sourceDone = false;
  #state: 'preamble' | 'delimiter' | 'body' | 'end' = 'preamble';
  #received = 0;
  #parts = 0;

  constructor(source: AsyncIterator<Uint8Array>, boundary: string, limits: MultipartLimits) {
    this.#source = source;
    this.#delimiter = Buffer.from(`\r\n--${boundary}`);
    this.#limits = limits;
  }

  /** Bytes of the body received so far. */
  get received(): number {
    return this.#received;
  }

  /** Whether the closing boundary has been read. */
  get ended(): boolean {
    return this.#state === 'end';
  }

  /** Reads one more chunk into the buffer; `false` when the body has ended. */
  async #fill(): Promise<boolean> {
    if (this.#sourceDone) return false;
    const next = await this.#source.next();
    if (next.done) {
      this.#sourceDone = true;
      return false;
    }
    const chunk = next.value;
    this.#received += chunk.byteLength;
    if (this.#received > this.#limits.maxBytes)
      throw new ConnectorError(
        'PAYLOAD_TOO_LARGE',
        `The upload is larger than ${this.#limits.maxBytes} bytes`,
      );
    this.#buffer =
      this.#buffer.length === 0
        ? Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)
        : Buffer.concat([this.#buffer, chunk]);
    return true;
  }

  /**
   * Reads what follows the closing boundary to the end of the body, within {@link MAX_EPILOGUE}: a body read to
   * its end lets the binding keep the connection.
   */
  async #drainEpilogue(already: number): Promise<void> {
    let bytes = already;
    while (!this.#sourceDone && bytes <= MAX_EPILOGUE) {
      const next = await this.#source.next();
      if (next.done) this.#sourceDone = true;
      else bytes += next.value.byteLength;
    }
  }

  /** Moves to the next part and reads its head; `undefined` after the last part. */
  async nextPart(): Promise<PartHead | undefined> {
    while (this.#state === 'body') await this.readChunk();
    while (this.#state === 'preamble') {
      const at = this.#buffer.indexOf(this.#delimiter);
      if (at !== -1) {
        this.#buffer = this.#buffer.subarray(at + this.#delimiter.length);
        this.#state = 'delimiter';
      } else {
        // Keep only what may be the start of a boundary.
        this.#buffer = this.#buffer.subarray(
          Math.max(0, this.#buffer.length - this.#delimiter.length + 1),
        );
        if (!(await this.#fill())) throw malformed('no boundary was found');
      }
    }
    if (this.#state === 'end') return undefined;
    // After a boundary: `--` closes the body; otherwise optional white space, a line break, the part's headers.
    while (this.#buffer.length < 2) {
      if (!(await this.#fill())) throw malformed('the body ends after a boundary');
    }
    if (this.#buffer[0] === 0x2d && this.#buffer[1] === 0x2d) {
      this.#state = 'end';
      await this.#drainEpilogue(this.#buffer.length - 2);
      this.#buffer = Buffer.alloc(0);
      return undefined;
    }
    for (;;) {
      const lineEnd = this.#buffer.indexOf(CRLF);
      if (lineEnd !== -1) {
        if (!/^[ \t]*$/.test(this.#buffer.toString('latin1', 0, lineEnd)))
          throw malformed('a boundary is followed by text on its line');
        this.#buffer = this.#buffer.subarray(lineEnd + 2);
        break;
      }
      if (this.#buffer.length > 256 || !(await this.#fill()))
        throw malformed('a boundary line does not end');
    }
    this.#parts += 1;
    if (this.#parts > this.#limits.maxParts)
      throw malformed(`it has more than ${this.#limits.maxParts} parts`);
    // The header block ends with an empty line; a part without headers starts with it. Each search starts where
    // the last one stopped, so headers sent a byte at a time cost no more than sent at once.
    let from = 0;
    for (;;) {
      if (this.#buffer.length >= 2 && this.#buffer[0] === 0x0d && this.#buffer[1] === 0x0a)
        throw malformed('a part has no Content-Disposition: form-data header');
      const end = this.#buffer.indexOf(HEADER_END, from);
      from = Math.max(0, this.#buffer.length - HEADER_END.length + 1);
      if (end !== -1 && end <= this.#limits.maxHeaderBytes) {
        const head = parseHead(this.#buffer.subarray(0, end));
        this.#buffer = this.#buffer.subarray(end + HEADER_END.length);
        this.#state = 'body';
        return head;
      }
      if (this.#buffer.length > this.#limits.maxHeaderBytes + HEADER_END.length)
        throw malformed(`a part's headers are larger than ${this.#limits.maxHeaderBytes} bytes`);
      if (!(await this.#fill())) throw malformed('the body ends inside a part');
    }
  }

  /** The current part's next bytes; `undefined` at its end. */
  async readChunk(): Promise<Buffer | undefined> {
    if (this.#state !== 'body') return undefined;
    for (;;) {
      const at = this.#buffer.indexOf(this.#delimiter);
      if (at === 0) {
        this.#buffer = this.#buffer.subarray(this.#delimiter.length);
        this.#state = 'delimiter';
        return undefined;
      }
      if (at > 0) {
        const bytes = this.#buffer.subarray(0, at);
        this.#buffer = this.#buffer.subarray(at);
        return bytes;
      }
      // Everything but what may be the start of the boundary is the part's.
      const safe = this.#buffer.length - this.#delimiter.length + 1;
      if (safe > 0) {
        const bytes = this.#buffer.subarray(0, safe);
        this.#buffer = this.#buffer.subarray(safe);
        return bytes;
      }
      if (!(await this.#fill())) throw malformed('the body ends inside a part');
    }
  }

  /** The whole current part, refused past `maxBytes`. */
  async readAll(maxBytes: number, tooLarge: () => Error): Promise<Buffer> {
    const chunks: Buffer[] = [];
    let size = 0;
    for (let chunk = await this.readChunk(); chunk; chunk = await this.readChunk()) {
      size += chunk.length;
      if (size > maxBytes) throw tooLarge();
      chunks.push(chunk);
    }
    return Buffer.concat(chunks, size);
  }

  /** Stops reading: the rest of the body is left to the binding, which discards it. */
  async close(): Promise<void> {
    this.#state = 'end';
    this.#buffer = Buffer.alloc(0);
    if (!this.#sourceDone) {
      this.#sourceDone = true;
      await this.#source.return?.();
    }
  }
}
