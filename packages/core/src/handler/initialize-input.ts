import type { ParameterEntry } from '../contract/schemas.js';

/**
 * The initialize body, checked: the entries, the typed configuration and the notification flag. A class, not an
 * object literal: it lives as long as the initialize, and V8 makes a literal's objects in the old generation for
 * every request once most of them outlive young collections, as they do in initializes that log in to an end
 * system (see `Redactor`).
 *
 * @internal
 */
export class InitializeInput {
  constructor(
    readonly entries: readonly ParameterEntry[],
    readonly config: Record<string, unknown>,
    readonly suppressNotification: boolean | undefined,
  ) {}
}
