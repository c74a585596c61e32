import { formatJavaDate } from '@connector-sdk/core';
import type { ConformanceCheck } from '../checks/check-helpers.js';
import { ConformanceFailure } from '../conformance-failure.js';
import type { DeclaredOperation } from '../declared-operations.js';
import { callDeclared, expectShape, serverTimeZone } from '../checks/platform-check-helpers.js';
import { changeEntity, prepare, revisionPattern, withEntity } from './round-trip-place.js';

/** History read window by window while the entity changes misses no change and repeats none. */
export const historyPolling: ConformanceCheck = {
  id: 'platform.history-polling',
  name: 'history read window by window while the entity changes misses no change and repeats none',
  async run(run) {
    const ready = await prepare(run, ['createEntity', 'updateEntity', 'entityHistory'], true);
    if ('skipped' in ready) return ready;
    const { platform, declared, place, roundTrip } = ready;
    const timeZone = await serverTimeZone(platform, declared);
    const pattern = revisionPattern(place);
    // Each change sets the fields of `update` to their created values and back, so each is a real change.
    const back = Object.fromEntries(
      Object.keys(roundTrip.update).map((name) => [name, roundTrip.create[name] ?? null]),
    );
    const history = declared.get('entityHistory') as DeclaredOperation;
    const outcome = await withEntity(run, ready, async (entityId) => {
      let changes = 0;
      const change = async () => {
        await changeEntity(
          platform,
          { declared, place, entityId },
          changes % 2 === 0 ? roundTrip.update : back,
        );
        changes++;
      };
      // From a minute before, so that an end system's clock a little behind still counts every change.
      let since = formatJavaDate(run.now() - 60_000, pattern, timeZone);
      await change();
      await change();
      const seen = new Set<string>();
      const repeated: string[] = [];
      // The platform's way: windows of one revision, a change between two windows; then a poll from the
      // newest revision time it read, until a poll brings nothing new.
      for (let poll = 0; poll < 3; poll++) {
        const walk = new Set<string>();
        let nextPageLink: string | undefined;
        let newest = since;
        for (let window = 0; window < 50; window++) {
          const answer = expectShape(
            'entityHistory',
            await callDeclared(platform, history, {
              query: {
                projectId: place.projectId,
                entityId,
                since,
                startIndex: String(window),
                maxResults: '1',
                ...(nextPageLink === undefined ? {} : { nextPageLink }),
              },
              params: { entityTypeId: place.entityTypeId },
            }),
          ) as {
            nextPageLink?: string;
            revisions: { entityId: string; revisionId: string; revisionDateTime: string }[];
          };
          for (const revision of answer.revisions) {
            if (String(revision.entityId) !== entityId) continue;
            const key = String(revision.revisionId);
            if (walk.has(key)) repeated.push(key);
            walk.add(key);
            seen.add(key);
            newest = revision.revisionDateTime;
          }
          nextPageLink = answer.nextPageLink;
          if (answer.revisions.length < 1) break;
          if (poll === 0 && window < 2) await change();
        }
        since = newest;
      }
      if (repeated.length > 0)
        throw new ConformanceFailure(
          `Entity history read one revision a window while the entity changed gave revision ${repeated.map((id) => `'${id}'`).join(', ')} twice in one walk: cut windows from a list in the platform's order (oldest first), so that a change made meanwhile comes last, and never page the end system's newest-first list by offset.`,
        );
      if (seen.size < changes)
        throw new ConformanceFailure(
          `The kit changed entity '${entityId}' ${changes} times, and its history read window by window, then polled from the newest revision read, showed ${seen.size} revision${seen.size === 1 ? '' : 's'} of it: the platform would miss ${changes - seen.size} change${changes - seen.size === 1 ? '' : 's'}. Answer every revision at or after since, in the platform's order, and cut windows from that list.`,
        );
      return undefined;
    });
    return typeof outcome === 'string' ? { skipped: outcome } : undefined;
  },
};
