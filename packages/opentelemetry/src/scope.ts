import type { RequestTrace } from '@connector-sdk/core';
import type { Context } from '@opentelemetry/api';

/**
 * What the instrumentation keeps in its async storage while the SDK works: the OpenTelemetry context whose span
 * is the innermost one the SDK's work runs in (request, login or end-system attempt), and the platform request
 * it belongs to, whose operation and connector name the spans and metrics within it carry.
 *
 * A class, not an object literal, since it lives as long as the request (see core's `Redactor`).
 *
 * @internal
 */
export class Scope {
  readonly context: Context;
  readonly request: RequestTrace | undefined;
  constructor(context: Context, request: RequestTrace | undefined) {
    this.context = context;
    this.request = request;
  }
}
