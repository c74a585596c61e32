import {
  endSystemChannel,
  type EndSystemTrace,
  type LoginTrace,
  type PublishedError,
  type RequestTrace,
} from '../diagnostics/channels.js';
import { publishedError, traceAsync } from '../diagnostics/trace-async.js';
import { toConnectorError } from '../errors/to-connector-error.js';
import { egressRefusal } from './transport/attempt-abort.js';
import { requestContext } from './client-state.js';
import { safeUrl } from './transport/safe-url.js';

/** Attempts published so far, by the ky context of their call (ky makes one per call, kept across retries). */
const attempts = new WeakMap<object, number>();

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
  const call = requestContext(input);
  const secrets = call?.client.secrets;
  const redact = secrets && ((text: string) => secrets.redact(text));
  let attempt = 0;
  if (call) {
    attempt = attempts.get(call.context) ?? 0;
    attempts.set(call.context, attempt + 1);
  }
  const trace = new PublishedAttempt(
    call?.client.traces?.trace,
    input.method,
    bareUrl(input.url, redact),
    attempt,
    shownQuery(input.url, redact),
  );
  return traceAsync(
    endSystemChannel,
    trace,
    () => send(input, init),
    (context, outcome, failed) => {
      if (!failed) {
        context.status = (outcome as Response).status;
        return;
      }
      const error = toConnectorError(outcome);
      // The platform hears of a refused name as of one DNS does not know; the operator's trace says which.
      context.code = egressRefusal(outcome) ? 'EGRESS_REFUSED' : error.code;
      context.error = publishedError(error);
    },
  );
}

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
  constructor(
    parent: RequestTrace | LoginTrace | undefined,
    method: string,
    url: string,
    attempt: number,
    query: string | undefined,
  ) {
    this.parent = parent;
    this.method = method;
    this.url = url;
    this.attempt = attempt;
    this.query = query;
  }
}

/** The URL without user info, query or fragment: their values may be credentials. */
function bareUrl(url: string, redact: ((text: string) => string) | undefined): string {
  let bare: string;
  try {
    const { origin, pathname } = new URL(url);
    bare = `${origin}${pathname}`;
  } catch {
    return '[invalid URL]';
  }
  return redact ? redact(bare) : bare;
}

/** The query as log lines show it: values named like credentials and the request's secrets replaced. */
function shownQuery(
  url: string,
  redact: ((text: string) => string) | undefined,
): string | undefined {
  const start = url.indexOf('?');
  if (start === -1) return undefined;
  const shown = safeUrl(url);
  const at = shown.indexOf('?');
  if (at === -1) return undefined;
  const query = shown.slice(at + 1).replace(/#.*$/, '');
  return redact ? redact(query) : query;
}
