import { toConnectorError } from '../errors/to-connector-error.js';
import type { Redactor } from '../security/redactor.js';
import { loginChannel, type LoginTrace, type PublishedError } from './channels.js';
import { publishedError, traceAsync } from './trace-async.js';

/**
 * Runs the connector's `initialize` code on the `login` tracing channel when it has a subscriber, so end-system
 * calls made while logging in nest under the login.
 *
 * @param login - the login, as the handler runs it
 * @param fields - the connector's name, the system id and the request's redactor
 * @returns what `login` resolves to
 * @internal
 */
export function traceLogin<T>(
  login: () => Promise<T>,
  fields: { readonly connector: string; readonly systemId: string; readonly redactor: Redactor },
): Promise<T> {
  if (!loginChannel.hasSubscribers) return login();
  const { redactor } = fields;
  const trace = new PublishedLogin(fields.connector, redactor.redact(fields.systemId));
  return traceAsync(loginChannel, trace, login, (context, outcome, failed) => {
    if (!failed) return;
    // The SDK's answer before the connector's `mapError`: the request's trace has the final one.
    const error = toConnectorError(outcome);
    context.code = error.code;
    context.error = publishedError(error);
  });
}

/** A login's trace, made with `new` and with every member from the start (see `PublishedRequest`). */
class PublishedLogin implements LoginTrace {
  readonly connector: string;
  readonly systemId: string;
  code?: string = undefined;
  error?: PublishedError = undefined;
  constructor(connector: string, systemId: string) {
    this.connector = connector;
    this.systemId = systemId;
  }
}
