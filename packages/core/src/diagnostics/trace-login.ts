import { toConnectorError } from '../errors/to-connector-error.js';
import type { Redactor } from '../security/redaction/redactor.js';
import {
  loginChannel,
  type LoginTrace,
  type PublishedError,
  type RequestTrace,
} from './channels.js';
import { publishedError, traceAsync } from './trace-async.js';

/** Where a login runs: the request's current trace, which the login replaces while it runs. */
export interface LoginScope {
  readonly requestTrace: RequestTrace | undefined;
  trace: RequestTrace | LoginTrace | undefined;
}

/**
 * Runs the connector's `initialize` code on the `login` tracing channel when it has a subscriber, so end-system
 * calls made while logging in nest under the login: their traces, and the request's log lines, name it while it
 * runs.
 *
 * @param login - the login, as the handler runs it
 * @param fields - the connector's name, the system id, the request's redactor and its traces
 * @returns what `login` resolves to
 * @internal
 */
export function traceLogin<T>(
  login: () => Promise<T>,
  fields: {
    readonly connector: string;
    readonly systemId: string;
    readonly redactor: Redactor;
    readonly scope: LoginScope;
  },
): Promise<T> {
  if (!loginChannel.hasSubscribers) return login();
  const { redactor, scope } = fields;
  const outer = scope.trace;
  const trace = new PublishedLogin(
    scope.requestTrace,
    fields.connector,
    redactor.redact(fields.systemId),
  );
  scope.trace = trace;
  return traceAsync(
    {
      channel: loginChannel,
      settle(context, outcome, failed) {
        if (scope.trace === trace) scope.trace = outer;
        if (!failed) return;
        // The SDK's answer before the connector's `mapError`: the request's trace has the final one.
        const error = toConnectorError(outcome);
        context.code = error.code;
        context.error = publishedError(error);
      },
    },
    trace,
    login,
  );
}

/** A login's trace, made with `new` and with every member from the start (see `PublishedRequest`). */
class PublishedLogin implements LoginTrace {
  readonly request: RequestTrace | undefined;
  readonly connector: string;
  readonly systemId: string;
  code?: string = undefined;
  error?: PublishedError = undefined;
  constructor(request: RequestTrace | undefined, connector: string, systemId: string) {
    this.request = request;
    this.connector = connector;
    this.systemId = systemId;
  }
}
