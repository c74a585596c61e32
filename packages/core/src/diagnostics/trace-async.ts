import type { TracingChannel } from 'node:diagnostics_channel';
import type { PublishedError } from './channels.js';

/** A tracing channel and how a traced outcome is copied into its context. @internal */
export interface Tracing<C extends object> {
  readonly channel: TracingChannel<unknown, C>;
  readonly settle: (context: C, outcome: unknown, failed: boolean) => void;
}

/**
 * `TracingChannel.tracePromise`, except for what the context receives: Node's sets `result` to what the promise
 * resolved to and `error` to what it rejected with, and both may hold secrets (an initialize answer holds the
 * session, a thrown error whatever connector code put in it). Here `settle` copies what may be published; a
 * context whose `error` it set publishes `error`, then `asyncStart` and `asyncEnd`, as Node's does.
 *
 * @param tracing - the tracing channel, and `settle`, which copies the outcome into the context: the result, or
 *   the thrown value with `failed` true; one object, usually a module constant
 * @param context - the context, published on every event and given to bound stores by `start`
 * @param run - the traced work, run within the stores `start` binds (so work it starts nests under it)
 * @returns what `run` resolves to, or its rejection
 * @internal
 */
export function traceAsync<C extends { error?: PublishedError }, T>(
  tracing: Tracing<C>,
  context: C,
  run: () => Promise<T>,
): Promise<T> {
  const { channel: traced, settle } = tracing;
  const finish = (outcome: unknown, failed: boolean): void => {
    settle(context, outcome, failed);
    if (context.error !== undefined) traced.error.publish(context);
    traced.asyncStart.publish(context);
    traced.asyncEnd.publish(context);
  };
  return traced.start.runStores(context, () => {
    try {
      return run().then(
        (result) => {
          finish(result, false);
          return result;
        },
        (error: unknown) => {
          finish(error, true);
          throw error;
        },
      );
    } catch (error) {
      settle(context, error, true);
      traced.error.publish(context);
      throw error;
    } finally {
      traced.end.publish(context);
    }
  });
}

/**
 * A failure as it may be published: its name and code.
 *
 * @param error - the SDK error the failure is answered with
 * @internal
 */
export function publishedError(error: {
  readonly name: string;
  readonly code: string;
}): PublishedError {
  return { name: error.name, code: error.code };
}
