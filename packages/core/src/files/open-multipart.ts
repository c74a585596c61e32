import { ConnectorError } from '../errors/connector-error.js';
import type { ConnectorRequest } from '../contract/connector-request.js';
import { MultipartReader, multipartBoundary, type MultipartLimits } from './multipart-reader.js';

/** The bytes of a request whose binding gives no `bytes()`: a body handed over whole (in-process callers). */
async function* bodyBytes(request: ConnectorRequest): AsyncGenerator<Uint8Array> {
  const body = request.body;
  if (body instanceof Uint8Array) yield body;
  else if (typeof body === 'string') yield Buffer.from(body);
  // Text would have lost the bytes of a binary file.
  else if (request.text !== undefined)
    throw new ConnectorError(
      'BAD_REQUEST',
      'This request gives its body only as text, which loses the bytes of an upload',
    );
}

/**
 * A reader of an upload request's `multipart/form-data` body, over the bytes as the binding gives them. What
 * the head alone refuses is refused before a byte of the body is read.
 *
 * @throws ConnectorError 415 for another content type or no boundary, 413 for a declared length over the bound
 * @internal
 */
export function openMultipart(request: ConnectorRequest, limits: MultipartLimits): MultipartReader {
  const boundary = multipartBoundary(request.headers['content-type']);
  if (boundary === undefined)
    throw new ConnectorError(
      'UNSUPPORTED_MEDIA_TYPE',
      'This operation takes a multipart/form-data body with a boundary',
    );
  const declared = Number(request.headers['content-length']);
  if (declared > limits.maxBytes)
    throw new ConnectorError(
      'PAYLOAD_TOO_LARGE',
      `The upload is larger than ${limits.maxBytes} bytes`,
    );
  const source = (request.bytes?.() ?? bodyBytes(request))[Symbol.asyncIterator]();
  return new MultipartReader(source, boundary, limits);
}
