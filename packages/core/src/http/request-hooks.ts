import type { BeforeRequestHook } from 'ky';
import { bindRequest } from './call-state.js';
import { HeldUpload } from './transport/held-upload.js';
import { registerCredentials } from './credentials/request-credentials.js';
import { carriesCredentialsAway } from '../security/egress/credentials-home.js';

// The `beforeRequest` hook of every end-system client: what is done before each attempt is sent.

/**
 * Starts the client's deadline with its first call, registers what the request sends as credentials with the
 * platform request's redactor before anything is sent (ARCHITECTURE.md, D4), and ties the request to its call's
 * state for the client's `fetch`, noting a body that is a stream given by connector code (never retried) or a
 * held upload's placeholder (see `call-state.ts`).
 *
 * @internal
 */
export const prepareRequest: BeforeRequestHook = (request, options) => {
  const call = bindRequest(request, options);
  if (call === undefined) return;
  const { client } = call;
  client.deadlineAt ??= Date.now() + client.deadlineMs;
  // One pass over the headers: registering them finds the ones a redirect would carry away.
  call.credentialsAway = client.secrets
    ? registerCredentials(request.url, request.headers, client.secrets)
    : carriesCredentialsAway(request.headers);
  const body = options.body as unknown;
  if (body instanceof ReadableStream) call.streamed = true;
  else if (body instanceof HeldUpload) call.held = body;
};
