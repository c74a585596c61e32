import type { ExchangeEntry } from './transcript.js';

/**
 * The connector answered something the contract does not allow. The message names the request, every
 * problem found and the (masked) response, so the author sees what to fix.
 */
export class ContractViolationError extends Error {
  override readonly name = 'ContractViolationError';
  /** What is wrong, one sentence each. */
  readonly problems: readonly string[];
  /** The exchange that broke the contract, masked. */
  readonly exchange: ExchangeEntry;

  /** @param exchange - the offending exchange, whose `problems` are not empty */
  constructor(exchange: ExchangeEntry) {
    const { request, response } = exchange;
    super(
      `The connector broke the contract answering ${request.method} ${request.url}:\n` +
        exchange.problems.map((problem) => `  - ${problem}`).join('\n') +
        `\nIt answered ${response.status} ${response.body.slice(0, 500)}`,
    );
    this.problems = exchange.problems;
    this.exchange = exchange;
  }
}

/**
 * The simulated platform could not go on, as the real one could not: initialize failed, or the connector
 * kept asking it to wait.
 */
export class SimulatorError extends Error {
  override readonly name = 'SimulatorError';
  /** The last exchange, masked, when there was one. */
  readonly exchange: ExchangeEntry | undefined;

  /**
   * @param message - what went wrong
   * @param exchange - the last exchange
   * @param options - the underlying failure, such as a refused connection
   */
  constructor(message: string, exchange?: ExchangeEntry, options?: { readonly cause?: unknown }) {
    super(message, options);
    this.exchange = exchange;
  }
}
