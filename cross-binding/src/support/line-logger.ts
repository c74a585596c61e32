import type { Logger } from '@connector-sdk/core';

/** A logger that keeps every line as JSON text, for tests that look for secrets in what was logged. */
export function lineLogger(): Logger & { readonly lines: string[] } {
  const lines: string[] = [];
  const log = (fields: unknown, message?: string) =>
    void lines.push(JSON.stringify([fields, message]));
  return { lines, debug: log, info: log, warn: log, error: log };
}
