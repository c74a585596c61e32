import { ConnectorError } from '../errors/connector-error.js';
import { ValidationError } from '../errors/errors.js';
import type { ConnectorRequest } from '../handler/connector-request.js';
import { Base64Decoder } from './base64-stream.js';
import { MultipartReader, multipartBoundary, type PartHead } from './multipart-reader.js';

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
   * once: pass it on to the end system (as a request body) rather than holding the file in memory.
   */
  readonly stream: ReadableStream<Uint8Array>;
  /** The whole file in memory, for files known to be small. */
  bytes(): Promise<Uint8Array>;
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
   * A declared text field, wherever it came in the body; `undefined` when it was not sent. Asked for before the
   * file has been read, the file is read ahead into memory (at most `readAheadBytes`) to reach it.
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
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

async function* bodyBytes(request: ConnectorRequest): AsyncGenerator<Uint8Array> {
  const body = request.body;
  if (body instanceof Uint8Array) yield body;
  else if (typeof body === 'string') yield Buffer.from(body);
  else if (request.text !== undefined) yield Buffer.from(await request.text());
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
  #file: PartHead | undefined;
  #decoder: Base64Decoder | undefined;
  /** File bytes read ahead, not yet given to the stream. */
  readonly #ahead: Uint8Array[] = [];
  #aheadBytes = 0;
  #fileEnded = false;
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
    const boundary = multipartBoundary(request.headers['content-type']);
    if (boundary === undefined)
      throw new ConnectorError(
        'UNSUPPORTED_MEDIA_TYPE',
        'This operation takes a multipart/form-data body with a boundary',
      );
    const source = (request.bytes?.() ?? bodyBytes(request))[Symbol.asyncIterator]();
    const upload = new Upload(new MultipartReader(source, boundary, limits), spec, limits);
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
    const head = this.#file as PartHead;
    const stream = new ReadableStream<Uint8Array>(
      {
        pull: async (controller) => {
          try {
            const chunk = await this.#nextFileBytes();
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
      fileName: head.fileName,
      contentType: head.contentType ?? 'application/octet-stream',
      stream,
      bytes: async () => new Uint8Array(await new Response(stream).arrayBuffer()),
    };
    const body: Record<string, unknown> = {
      file,
      field: (name: string) => this.#field(name),
    };
    for (const name of this.#spec.required ?? []) body[name] = this.#fields.get(name);
    return body as UploadBody<R, O>;
  }

  /** Stops reading; what is left of the body is the binding's to discard. */
  close(): Promise<void> {
    return this.#reader.close().catch(() => undefined);
  }

  #fail(error: unknown): ConnectorError {
    this.failure ??=
      error instanceof ConnectorError
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
    const bytes = await this.#reader.readAll(this.#limits.maxFieldBytes, () =>
      inputError(`'body.${head.name}' is larger than ${this.#limits.maxFieldBytes} bytes`),
    );
    if (this.#fields.has(head.name))
      throw new ValidationError(`The multipart body has '${head.name}' twice`, {
        code: 'INVALID_MULTIPART',
      });
    let text: string;
    try {
      text = UTF8.decode(bytes);
    } catch {
      throw inputError(`'body.${head.name}' is not valid UTF-8`);
    }
    this.#fields.set(head.name, text);
  }

  async #readUntilFile(): Promise<void> {
    for (let head = await this.#reader.nextPart(); head; head = await this.#reader.nextPart()) {
      if (head.name === this.#spec.file) {
        this.#file = head;
        if (head.transferEncoding === 'base64') this.#decoder = new Base64Decoder();
        else if (
          head.transferEncoding !== undefined &&
          !/^(?:binary|8bit|7bit)$/.test(head.transferEncoding)
        )
          throw new ValidationError(
            `The file part's Content-Transfer-Encoding "${head.transferEncoding.slice(0, 40)}" is not supported`,
            { code: 'INVALID_MULTIPART' },
          );
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

  /** The file's next decoded bytes from the body; `undefined` at its end. */
  async #readFileBytes(): Promise<Uint8Array | undefined> {
    for (;;) {
      if (this.#fileEnded) return undefined;
      const raw = await this.#reader.readChunk();
      if (raw === undefined) {
        this.#fileEnded = true;
        this.#decoder?.end();
        return undefined;
      }
      const bytes = this.#decoder ? this.#decoder.write(raw) : raw;
      // Copied: the reader's buffer is reused as more of the body arrives.
      if (bytes.length > 0) return Uint8Array.from(bytes);
    }
  }

  #nextFileBytes(): Promise<Uint8Array | undefined> {
    // Under the lock, so that bytes read ahead for `field()` meanwhile come first.
    return this.#locked(() => {
      const held = this.#ahead.shift();
      if (held === undefined) return this.#readFileBytes();
      this.#aheadBytes -= held.byteLength;
      return Promise.resolve(held);
    });
  }

  async #readAhead(tooMuch: () => Error): Promise<void> {
    for (let bytes = await this.#readFileBytes(); bytes; bytes = await this.#readFileBytes()) {
      this.#aheadBytes += bytes.byteLength;
      if (this.#aheadBytes > this.#limits.readAheadBytes) throw tooMuch();
      this.#ahead.push(bytes);
    }
  }

  #field(name: string): Promise<string | undefined> {
    const declared = [...(this.#spec.required ?? []), ...(this.#spec.optional ?? [])];
    if (!declared.includes(name as R))
      return Promise.reject(new TypeError(`"${name}" is not a field this upload declares`));
    if (this.#fields.has(name) || this.#reader.ended)
      return Promise.resolve(this.#fields.get(name));
    return this.#locked(async () => {
      try {
        if (!this.#fileEnded)
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
