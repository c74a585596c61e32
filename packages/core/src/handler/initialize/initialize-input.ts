import type { ParameterEntry } from '../../contract/schemas.js';

/**
 * The initialize body, checked: the entries, the typed configuration and the notification flag. A class, not an
 * object literal, since it lives as long as the initialize (see `Redactor`).
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
