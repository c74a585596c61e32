import { ConnectorError } from '../../errors/connector-error.js';

/** Where a poll's walk stands: the update time (epoch ms) and id of the last item it returned. */
export interface PollKey {
  readonly updated: number;
  readonly id: string;
}

/** The poll a link belongs to: the `since` and `until` the platform searched with. */
export interface PollBounds {
  readonly since: number;
  readonly until: number | undefined;
}

const VERSION = 'p1';
/** The catalog's cap on `nextPageLink` (query-schemas.ts): a longer link could never come back. */
const MAX_LINK_LENGTH = 4_096;
const BASE64URL = /^[A-Za-z0-9_-]+$/;

/**
 * FNV-1a (32 bits) of the key and the poll's bounds. A checksum, not a signature: it turns a link edited by hand,
 * cut short, or sent back with another poll's `since` or `maxTime` into a 400 instead of a walk that silently
 * starts in the wrong place. A forged link that passes it does no harm: all a link does is position the walk
 * inside `[since - overlap, until]` of what the session may read anyway, and its id is only compared, never
 * sent to the end system.
 */
function checksum(key: PollKey, bounds: PollBounds): string {
  const text = JSON.stringify([bounds.since, bounds.until ?? null, key.updated, key.id]);
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(36);
}

/**
 * The `nextPageLink` that goes on after `key`: opaque base64url text.
 *
 * @internal
 */
export function writePollLink(key: PollKey, bounds: PollBounds): string {
  const payload = JSON.stringify([VERSION, key.updated, key.id, checksum(key, bounds)]);
  return Buffer.from(payload, 'utf8').toString('base64url');
}

function refused(problem: string): ConnectorError {
  return new ConnectorError('INVALID_PARAMETER', `'nextPageLink' ${problem}`);
}

/**
 * Reads a `nextPageLink` the platform sent back, as the hostile input it may be: anything but a link
 * {@link writePollLink} made for this poll is a `400 INVALID_PARAMETER`, never a crash.
 *
 * @internal
 */
export function readPollLink(link: string, bounds: PollBounds): PollKey {
  const notOurs = () => refused('is not a link this search answered');
  if (link.length > MAX_LINK_LENGTH || !BASE64URL.test(link)) throw notOurs();
  const payload = Buffer.from(link, 'base64url');
  // The last base64url character may carry bits the decoder drops: only the one spelling we write is ours.
  if (payload.toString('base64url') !== link) throw notOurs();
  let parsed: unknown;
  try {
    parsed = JSON.parse(payload.toString('utf8'));
  } catch {
    throw notOurs();
  }
  if (!Array.isArray(parsed) || parsed.length !== 4) throw notOurs();
  const [version, updated, id, check] = parsed as unknown[];
  if (
    version !== VERSION ||
    typeof updated !== 'number' ||
    !Number.isFinite(updated) ||
    typeof id !== 'string' ||
    typeof check !== 'string'
  )
    throw notOurs();
  const key = { updated, id };
  if (check !== checksum(key, bounds))
    throw refused('belongs to another poll (another since or maxTime), or was changed');
  return key;
}
