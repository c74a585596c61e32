import { ValidationError } from '../errors/errors.js';

/**
 * Encodes a stream of bytes as base64 text, chunk by chunk: each chunk's whole 3-byte groups are written at once
 * and the one or two bytes left over wait for the next chunk, so the output is the base64 of the whole input
 * while no more than one chunk is held.
 *
 * @internal
 */
export class Base64Encoder {
  #carry: Buffer = Buffer.alloc(0);

  /** The base64 of what can be written of `chunk` now. */
  write(chunk: Uint8Array): string {
    const bytes =
      this.#carry.length === 0
        ? Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)
        : Buffer.concat([this.#carry, chunk]);
    const whole = bytes.length - (bytes.length % 3);
    this.#carry = Buffer.from(bytes.subarray(whole));
    return bytes.toString('base64', 0, whole);
  }

  /** The base64 of the bytes still held, with its padding. */
  end(): string {
    const rest = this.#carry.toString('base64');
    this.#carry = Buffer.alloc(0);
    return rest;
  }
}

const BASE64_TEXT = /^[A-Za-z0-9+/]*={0,2}$/;
const WHITE_SPACE = /[\t\n\r ]+/g;

/**
 * Decodes base64 text that arrives in chunks (a multipart part sent with `Content-Transfer-Encoding: base64`):
 * line breaks and spaces are dropped, whole 4-character groups are decoded at once, and anything that is not
 * base64 is refused instead of being decoded into garbage, as `Buffer.from(text, 'base64')` would.
 *
 * @internal
 */
export class Base64Decoder {
  #carry = '';
  #ended = false;

  /** The bytes of what can be decoded of `chunk` now. */
  write(chunk: Uint8Array): Buffer {
    const text = this.#carry + Buffer.from(chunk).toString('latin1').replace(WHITE_SPACE, '');
    if (this.#ended && text !== '') throw invalid();
    const whole = text.length - (text.length % 4);
    const head = text.slice(0, whole);
    this.#carry = text.slice(whole);
    if (!BASE64_TEXT.test(head)) throw invalid();
    // Padding ends the data: anything after a padded group is not base64.
    if (head.endsWith('=')) this.#ended = true;
    return Buffer.from(head, 'base64');
  }

  /** Checks that nothing but whole groups was sent. */
  end(): void {
    if (this.#carry !== '') throw invalid();
  }
}

const invalid = () =>
  new ValidationError('The file part says it is base64 but is not valid base64', {
    code: 'INVALID_MULTIPART',
  });
