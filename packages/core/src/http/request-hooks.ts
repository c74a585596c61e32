import type { BeforeRequestHook } from 'ky';
import { bindRequest, clientOf } from './client-state.js';
import { noteHeldBody } from './transport/held-upload.js';
import { registerCredentials } from './request-credentials.js';

// The `beforeRequest` hook of every end-system client: what is done before each attempt is sent.

/**
 * Failures that are not retried although ky's rules would: those of a streamed upload (a stream is read once),
 * and a proxy refusing the tunnel with a 4xx.
 *
 * @internal
 */
export const noRetry = new WeakSet<object>();

/** The requests whose body is a stream: read once, they cannot be sent again. */
const streamed = new WeakSet<Request>();

/** Whether a request sends a stream given as its body (an upload passed on as it arrives). @internal */
export function sendsStream(request: Request): boolean {
  return streamed.has(request);
}

/**
 * Starts the client's deadline with its first call, registers what the request sends as credentials with the
 * platform request's redactor before anything is sent (ARCHITECTURE.md, D4), and hands the request's context to
 * the client's `fetch`, noting a request whose body is a stream given by connector code (never retried).
 *
 * @internal
 */
export const prepareRequest: BeforeRequestHook = (request, options) => {
  const client = clientOf(options);
  if (client === undefined) return;
  client.deadlineAt ??= Date.now() + client.deadlineMs;
  if (client.secrets) registerCredentials(request.url, request.headers, client.secrets);
  bindRequest(request, options);
  if ((options.body as unknown) instanceof ReadableStream) streamed.add(request);
  else if (options.body instanceof Blob) noteHeldBody(request, options.body);
};
