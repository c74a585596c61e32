// The issue tracker's REST API as the connector of docs/platform-operations.md calls it, shared by its required
// operations (platform-operations.ts) and its optional ones (platform-optional-operations.ts). The fake tracker
// in fake-tracker.ts serves it for the tests.
// #region api
import type { Logger } from '@connector-sdk/core';
import { createEndSystemClient } from '@connector-sdk/core/http';

/** The session as the connector's later calls read it. */
export interface TrackerSession {
  readonly Authorization: string;
  readonly 'X-Tracker-Url': string;
}

/** What a platform operation's handler passes on to reach the tracker. */
export interface TrackerCall {
  readonly session: TrackerSession;
  readonly signal: AbortSignal;
  readonly log: Logger;
}

/** The tracker's API as the session's user. */
export const tracker = (call: TrackerCall) =>
  createEndSystemClient({
    baseUrl: call.session['X-Tracker-Url'],
    headers: { Authorization: call.session.Authorization },
    signal: call.signal,
    log: call.log,
  });

/**
 * The page size the platform may ask for at most: server info announces it,
 * readWindow enforces it.
 */
export const MAX_RESULTS = 100;

/**
 * The time zone server info announces: dates whose pattern has no offset are
 * read in it.
 */
export const TIME_ZONE = 'UTC';

/**
 * The pattern the issue type declares for comment and revision dates: the
 * connector writes them in it, and the platform sends `afterTime`, `since` and
 * `maxTime` in it.
 */
export const DATE_FORMAT = "yyyy-MM-dd'T'HH:mm:ss.SSSZ";

/** An issue as the tracker answers it. */
export interface Issue {
  id: string;
  summary: string;
  status: string;
  /** ISO 8601, such as `2026-11-25T09:01:00.000Z`. */
  updated: string;
}

/** A comment as the tracker answers it. */
export interface TrackerComment {
  id: string;
  text: string;
  author: string;
  /** ISO 8601. */
  created: string;
}

/**
 * One change in the tracker's feed of changes: an issue created or edited, or a
 * comment added.
 */
export interface TrackerChange {
  issue: string;
  /** Counts the issue's changes from 1. */
  number: number;
  /** ISO 8601. */
  at: string;
  /** The login of the user who made it. */
  by: string;
  kind: 'created' | 'edited' | 'commented';
  /** The fields changed, each as [before, after]. */
  fields?: Record<string, [from: unknown, to: unknown]>;
  comment?: TrackerComment;
}

/** An attachment as the tracker answers it. */
export interface TrackerAttachment {
  id: string;
  issue: string;
  name: string;
  type: string;
  size: number;
  /** ISO 8601. */
  created: string;
}
// #endregion api
