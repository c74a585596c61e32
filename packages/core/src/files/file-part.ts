import { ValidationError } from '../errors/errors.js';
import { Base64Decoder } from './base64-stream.js';
import type { MultipartReader, PartHead } from './multipart-reader.js';

/** Chunks read ahead smaller than this are joined, so a body sent a byte at a time holds no more than its bytes. */
const JOIN_BELOW = 16_384;

/**
 * The file part of an upload as it is read from the body: its bytes decoded as they come (base64 when the part
 * says so), and the bytes read ahead of the handler to reach a field sent after the file, given back first.
 *
 * @internal
 */
export class FilePart {
  readonly head: PartHead;
  readonly #reader: MultipartReader;
  readonly #decoder: Base64Decoder | undefined;
  /** File bytes read ahead, not yet given to the handler. */
  readonly #ahead: Uint8Array[] = [];
  #aheadBytes = 0;
  #ended = false;

  /** @throws ValidationError for a `Content-Transfer-Encoding` other than base64, binary, 8bit or 7bit */
  constructor(reader: MultipartReader, head: PartHead) {
    const encoding = head.transferEncoding;
    if (encoding !== undefined && !/^(?:base64|binary|8bit|7bit)$/.test(encoding))
      throw new ValidationError(
        `The file part's Content-Transfer-Encoding "${encoding.slice(0, 40)}" is not supported`,
        { code: 'INVALID_MULTIPART' },
      );
    this.#reader = reader;
    this.head = head;
    this.#decoder = encoding === 'base64' ? new Base64Decoder() : undefined;
  }

  /** Whether the body has been read to the file's end. */
  get ended(): boolean {
    return this.#ended;
  }

  /** Whether every byte of the file has been given out. */
  get drained(): boolean {
    return this.#ended && this.#ahead.length === 0;
  }

  /** The file's next bytes for the handler, those read ahead first; `undefined` at its end. */
  next(): Promise<Uint8Array | undefined> {
    const held = this.#ahead.shift();
    if (held === undefined) return this.#read();
    this.#aheadBytes -= held.byteLength;
    return Promise.resolve(held);
  }

  /**
   * Reads the rest of the file into memory, to reach the parts after it.
   *
   * @param maxBytes - the most bytes held ahead; past it, `tooMuch()` is thrown
   * @param hold - takes each chunk's bytes from the handler's budget, or throws
   */
  async readAhead(maxBytes: number, tooMuch: () => Error, hold: (bytes: number) => void) {
    for (let bytes = await this.#read(); bytes; bytes = await this.#read()) {
      this.#aheadBytes += bytes.byteLength;
      if (this.#aheadBytes > maxBytes) throw tooMuch();
      hold(bytes.byteLength);
      const last = this.#ahead.at(-1);
      if (last !== undefined && last.byteLength < JOIN_BELOW)
        this.#ahead[this.#ahead.length - 1] = Buffer.concat([last, bytes]);
      else this.#ahead.push(bytes);
    }
  }

  /** The file's next decoded bytes from the body; `undefined` at its end. */
  async #read(): Promise<Uint8Array | undefined> {
    for (;;) {
      if (this.#ended) return undefined;
      const raw = await this.#reader.readChunk();
      if (raw === undefined) {
        this.#ended = true;
        this.#decoder?.end();
        return undefined;
      }
      const bytes = this.#decoder ? this.#decoder.write(raw) : raw;
      if (bytes.length > 0) return bytes;
    }
  }
}
