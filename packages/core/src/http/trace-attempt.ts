import {
  endSystemChannel,
  type EndSystemTrace,
  type LoginTrace,
  type PublishedError,
  type RequestTrace,
} from '../diagnostics/channels.js';
import { publishedError, traceAsync, type Tracing } from '../diagnostics/trace-async.js';
import { toConnectorError } from '../errors/to-connector-error.js';
import { egressRefusal } from './transport/attempt-abort.js';
import { callOf, type CallState } from './call-state.js';
import { safeUrl } from './transport/safe-url.js';
import type { SecretSink } from '../security/redaction/secret-sink.js';

/**
 * Sends one attempt of an end-system call on the `endSystemRequest` tracing channel; called only when the
 * channel has a subscriber (ARCHITECTURE.md, D22). The URL is published without user info, query or fragment,
 * and with the request's secrets replaced.
 *
 * @param send - the client's `fetch`
 * @param input - the request ky prepared
 * @param init - ky's options for `fetch`
 * @returns what `send` resolves to
 * @internal
 */
export function traceAttempt(
  send: (input: string | URL | Request, init?: RequestInit) => Promise<Response>,
  input: string | URL | Request,
  init: RequestInit | undefined,
): Promise<Response> {
  if (!(input instanceof Request)) return send(input, init);
  const call = callOf(input);
  const trace = new PublishedAttempt(input, call, call ? call.traced++ : 0);
  return traceAsync(ATTEMPTS, trace, () => send(input, init));
}

/** The attempts' channel and how an attempt's outcome is published: made once, as it captures nothing. */
const ATTEMPTS: Tracing<EndSystemTrace> = {
  channel: endSystemChannel,
  settle(context, outcome, failed) {
    if (!failed) {
      context.status = (outcome as Response).status;
      return;
    }
    const error = toConnectorError(outcome);
    // The platform hears of a refused name as of one DNS does not know; the operator's trace says which.
    context.code = egressRefusal(outcome) ? 'EGRESS_REFUSED' : error.code;
    context.error = publishedError(error);
  },
};

/** An attempt's trace, made with `new` and with every member from the start (see core's `PublishedRequest`). */
class PublishedAttempt implements EndSystemTrace {
  readonly parent: RequestTrace | LoginTrace | undefined;
  readonly method: string;
  readonly url: string;
  readonly attempt: number;
  readonly query: string | undefined;
  status?: number = undefined;
  code?: string = undefined;
  error?: PublishedError = undefined;
  /**
   * @param request - the attempt's request
   * @param call - its call's state, when it has one: the trace it runs in, the secrets to replace
   * @param attempt - how many attempts of the call were published before it
   */
  constructor(request: Request, call: CallState | undefined, attempt: number) {
    const secrets = call?.client.secrets;
    this.parent = call?.client.traces?.trace;
    this.method = request.method;
    this.url = bareUrl(request.url, secrets);
    this.attempt = attempt;
    this.query = shownQuery(request.url, secrets);
  }
}

/** The URL without user info, query or fragment: their values may be credentials. */
function bareUrl(url: string, secrets: SecretSink | undefined): string {
  let bare: string;
  try {
    const { origin, pathname } = new URL(url);
    bare = `${origin}${pathname}`;
  } catch {
    return '[invalid URL]';
  }
  return secrets ? secrets.redact(bare) : bare;
}

/** The query as log lines show it: values named like credentials and the request's secrets replaced. */
function shownQuery(url: string, secrets: SecretSink | undefined): string | undefined {
  const start = url.indexOf('?');
  if (start === -1) return undefined;
  const shown = safeUrl(url);
  const at = shown.indexOf('?');
  if (at === -1) return undefined;
  const query = shown.slice(at + 1).replace(/#.*$/, '');
  return secrets ? secrets.redact(query) : query;
}
