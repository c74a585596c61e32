import type { IncomingMessage } from 'node:http';

/** The parts of an Express request the binding reads; the same in Express 4 and 5. */
export type ExpressRequestLike = IncomingMessage & {
  readonly baseUrl?: string;
  readonly originalUrl?: string;
  readonly body?: unknown;
  /** Set by body-parser 1 (`express.json()` and friends in Express 4) once it has read the body. */
  readonly _body?: boolean;
};
