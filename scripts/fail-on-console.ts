// Library code logs only through the logger the user passes in: any console call during a test fails it.
import { afterEach, beforeEach, expect, vi } from 'vitest';

const methods = ['log', 'info', 'warn', 'error', 'debug', 'trace'] as const;

beforeEach(() => {
  for (const method of methods) vi.spyOn(console, method);
});

afterEach(() => {
  for (const method of methods) {
    const calls = vi.mocked(console[method]).mock.calls;
    vi.mocked(console[method]).mockRestore();
    expect(calls, `console.${method} was called`).toEqual([]);
  }
});
