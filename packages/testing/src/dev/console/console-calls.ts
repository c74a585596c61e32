import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Set while the dev server serves one of the console's own platform calls: the end-system calls made in it are
 * the console's (shown under its exchange, recorded, faulted); anyone else's (the CLI, a real platform) pass
 * as they are and show on their own. An async context on purpose: the tap and the diagnostics channel run
 * inside the attempt, where nothing else says which platform call it belongs to.
 *
 * @internal
 */
export const consoleCalls = new AsyncLocalStorage<true>();
