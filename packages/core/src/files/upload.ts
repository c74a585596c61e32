import { ConnectorError, isConnectorError } from '../errors/connector-error.js';
import { ValidationError } from '../errors/errors.js';
import type { ConnectorRequest } from '../contract/connector-request.js';
import { bodyBudgetExceeded, type BodyBudget } from '../body/body-limits.js';
import { FilePart } from './file-part.js';
import type { MultipartReader, PartHead } from './multipart-reader.js';
import { openMultipart } from './open-multipart.js';
import { readTextField } from './text-field.js';

/**
 * An operation whose body is `multipart/form-data` with one file part, streamed (the platform's attachment
 * create and update).
 */
export interface UploadSpec<R extends string = string, O extends string = string> {
  /** The name of the file part. */
  readonly file: string;
  /** Text fields that must be sent (a 400 names one left out). */
  readonly required?: readonly R[];
  /** Text fields that may be sent. */
  readonly optional?: readonly O[];
}

/** The file part of an upload. */
export interface UploadedFile {
  /** The file name the sender gave in the part's `Content-Disposition`, if any. */
  readonly fileName: string | undefined;
  /** The part's content type. @default 'application/octet-stream' */
  readonly contentType: string;
  /**
   * The file's bytes as they arrive, decoded when the part says `Content-Transfer-Encoding: base64`. Read it
   * once: pass it on to the end system (as a request body, or in a `multipartBody`) rather than holding the
   * file in memory. The end-system client sends it with its `Content-Length` (see its `chunkedUploads`).
   */
  readonly stream: ReadableStream<Uint8Array>;
  /**
   * The whole file in memory, for files known to be small; a larger one is a 413 that says to read `stream`.
   *
   * @param maxBytes - the largest file taken whole @default 16_777_216 (16 MiB)
   */
  bytes(maxBytes?: number): Promise<Uint8Array>;
}

/**
 * What an upload operation's handler receives as `body`: each required text field, the file, and `field(name)`
 * for any declared field. A field sent after the file part (the platform sends `fileComment` last) is known
 * once the file has been read: read `file.stream` first, then ask for it.
 */
export type UploadBody<R extends string, O extends string> = { readonly [K in R]: string } & {
  /** The file part. */
  readonly file: UploadedFile;
  /**
   * A declared text field, wherever it came in the body; `undefined` when it was not sent. Ask for a field the
   * platform sends after the file (`fileComment`) once you have read the file: asked for before, the file is
   * read ahead into memory to reach it, and a file over 1 MiB makes that a 500 saying so.
   */
  field(name: R | O): Promise<string | undefined>;
};

/** Bounds of an upload. @internal */
export interface UploadLimits {
  /** Most bytes of the whole body. */
  readonly maxBytes: number;
  /** Most bytes of one text field. */
  readonly maxFieldBytes: number;
  /** Most bytes of the file held in memory to reach a field sent after it. */
  readonly readAheadBytes: number;
  readonly maxParts: number;
  readonly maxHeaderBytes: number;
  /** The bytes of uploads a handler holds at once (fields, read-ahead, `file.bytes()`), over all requests. */
  readonly inMemory: BodyBudget;
}

const inputError = (message: string) => new ValidationError(message, { code: 'INVALID_INPUT' });

/**
 * Reads an upload's body for its handler: the text fields before the file part, then the file as a stream,
 * with every bound applied as bytes arrive. The first failure while reading (too large, malformed, cut off) is
 * kept, so the operation answers it even when connector code saw it only as a failed end-system call.
 *
 * @internal
 */
export class Upload<R extends string = string, O extends string = string> {
  /** The first failure reading the body, once there is one. */
  failure: ConnectorError | undefined;
  readonly #reader: MultipartReader;
  readonly #spec: UploadSpec<R, O>;
  readonly #limits: UploadLimits;
  readonly #fields = new Map<string, string>();
  #file: FilePart | undefined;
  #closed = false;
  /** Bytes this upload holds against the handler's `inMemory` budget. */
  #held = 0;
  #lock: Promise<unknown> = Promise.resolve();

  private constructor(reader: MultipartReader, spec: UploadSpec<R, O>, limits: UploadLimits) {
    this.#reader = reader;
    this.#spec = spec;
    this.#limits = limits;
  }

  /**
   * Starts reading an upload: checks the content type, reads the text fields up to the file part and makes
   * sure every required field is there.
   *
   * @throws ConnectorError 415 for another content type, 400 for a malformed body or a missing field
   */
  static async open<R extends string, O extends string>(
    request: ConnectorRequest,
    spec: UploadSpec<R, O>,
    limits: UploadLimits,
  ): Promise<Upload<R, O>> {
    const upload = new Upload(openMultipart(request, limits), spec, limits);
    try {
      await upload.#readUntilFile();
      const missing = () => (spec.required ?? []).find((name) => !upload.#fields.has(name));
      if (upload.#file === undefined)
        throw inputError(`'body.${spec.file}' is required: the upload has no file part`);
      if (missing() !== undefined) {
        // Sent after the file: read the file ahead, within bounds, to reach it.
        await upload.#readAhead(() =>
          inputError(
            `'body.${missing()}' must come before the file part when the file is larger than ${limits.readAheadBytes} bytes`,
          ),
        );
        await upload.#readRest();
      }
      const absent = missing();
      if (absent !== undefined) throw inputError(`'body.${absent}' is required`);
      for (const name of spec.required ?? [])
        if (upload.#fields.get(name)?.trim() === '')
          throw inputError(`'body.${name}' must not be empty`);
    } catch (error) {
      await upload.close();
      throw upload.#fail(error);
    }
    return upload;
  }

  /** The handler's `body`. */
  body(): UploadBody<R, O> {
    const part = this.#file as FilePart;
    const stream = new ReadableStream<Uint8Array>(
      {
        pull: async (controller) => {
          try {
            if (this.#closed && !part.drained)
              throw new ConnectorError(
                'INTERNAL_ERROR',
                'The upload ended with the request: read body.file.stream before the handler returns',
              );
            // Under the lock, so that bytes read ahead for `field()` meanwhile come first.
            const chunk = await this.#locked(() => part.next());
            if (chunk === undefined) controller.close();
            else controller.enqueue(chunk);
          } catch (error) {
            controller.error(this.#fail(error));
          }
        },
      },
      { highWaterMark: 0 },
    );
    const file: UploadedFile = {
      fileName: part.head.fileName,
      contentType: part.head.contentType ?? 'application/octet-stream',
      stream,
      bytes: (maxBytes = 16_777_216) => this.#wholeFile(stream, maxBytes),
    };
    const body: Record<string, unknown> = {
      file,
      field: (name: string) => this.#field(name),
    };
    for (const name of this.#spec.required ?? []) body[name] = this.#fields.get(name);
    return body as UploadBody<R, O>;
  }

  /**
   * Reads the rest of a body whose file was read to its end (the fields after it, the closing boundary), within
   * the same bounds, so that the binding can keep the connection. A file not read to its end is left for the
   * binding to discard.
   */
  async finish(): Promise<void> {
    if (!this.#file?.ended || this.#reader.ended || this.failure !== undefined) return;
    await this.#locked(() => this.#readRest()).catch(() => undefined);
  }

  /** Stops reading; what is left of the body is the binding's to discard. */
  close(): Promise<void> {
    this.#closed = true;
    this.#limits.inMemory.give(this.#held);
    this.#held = 0;
    return this.#reader.close().catch(() => undefined);
  }

  /** Takes bytes from the handler's budget of upload bytes in memory; a 503 when it is spent. */
  #hold(bytes: number): void {
    if (!this.#limits.inMemory.take(bytes)) throw bodyBudgetExceeded();
    this.#held += bytes;
  }

  async #wholeFile(stream: ReadableStream<Uint8Array>, maxBytes: number): Promise<Uint8Array> {
    const chunks: Uint8Array[] = [];
    let size = 0;
    for await (const chunk of stream) {
      size += chunk.byteLength;
      if (size > maxBytes)
        throw this.#fail(
          new ConnectorError(
            'PAYLOAD_TOO_LARGE',
            `The uploaded file is larger than ${maxBytes} bytes, the most file.bytes() takes: read file.stream`,
          ),
        );
      this.#hold(chunk.byteLength);
      chunks.push(chunk);
    }
    return Buffer.concat(chunks, size);
  }

  #fail(error: unknown): ConnectorError {
    this.failure ??=
      // By brand, not class: a binding's error may come from another copy of core's classes (a CommonJS entry).
      isConnectorError(error)
        ? error
        : new ConnectorError('BAD_REQUEST', 'The upload could not be read', { cause: error });
    return this.failure;
  }

  /** Runs reads of the body one at a time: the file stream and `field()` may ask at once. */
  #locked<T>(read: () => Promise<T>): Promise<T> {
    const run = this.#lock.then(read);
    this.#lock = run.catch(() => undefined);
    return run;
  }

  async #readText(head: PartHead): Promise<void> {
    if (this.#fields.has(head.name))
      throw new ValidationError(`The multipart body has '${head.name}' twice`, {
        code: 'INVALID_MULTIPART',
      });
    const hold = (bytes: number) => this.#hold(bytes);
    const text = await readTextField(this.#reader, head, {
      maxBytes: this.#limits.maxFieldBytes,
      hold,
    });
    this.#fields.set(head.name, text);
  }

  async #readUntilFile(): Promise<void> {
    for (let head = await this.#reader.nextPart(); head; head = await this.#reader.nextPart()) {
      if (head.name === this.#spec.file) {
        this.#file = new FilePart(this.#reader, head);
        return;
      }
      await this.#readText(head);
    }
  }

  /** The parts after the file: text fields only. */
  async #readRest(): Promise<void> {
    for (let head = await this.#reader.nextPart(); head; head = await this.#reader.nextPart()) {
      if (head.name === this.#spec.file)
        throw new ValidationError(`The multipart body has more than one '${head.name}' part`, {
          code: 'INVALID_MULTIPART',
        });
      await this.#readText(head);
    }
  }

  /** Reads the rest of the file into memory, within bounds, to reach the parts after it. */
  #readAhead(tooMuch: () => Error): Promise<void> {
    const hold = (bytes: number) => this.#hold(bytes);
    return (this.#file as FilePart).readAhead(this.#limits.readAheadBytes, tooMuch, hold);
  }

  #field(name: string): Promise<string | undefined> {
    const declared = [...(this.#spec.required ?? []), ...(this.#spec.optional ?? [])];
    if (!declared.includes(name as R))
      return Promise.reject(new TypeError(`"${name}" is not a field this upload declares`));
    if (this.#fields.has(name) || this.#reader.ended)
      return Promise.resolve(this.#fields.get(name));
    return this.#locked(async () => {
      try {
        if (!this.#file?.ended)
          await this.#readAhead(
            () =>
              new ConnectorError(
                'INTERNAL_ERROR',
                `body.field('${name}') was asked for before the file was read, and the file is larger than ${this.#limits.readAheadBytes} bytes: read body.file.stream first`,
              ),
          );
        if (!this.#reader.ended) await this.#readRest();
      } catch (error) {
        throw this.#fail(error);
      }
      return this.#fields.get(name);
    });
  }
}
