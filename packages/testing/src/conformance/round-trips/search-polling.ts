import type { ConformanceCheck } from '../checks/check-helpers.js';
import { ConformanceFailure } from '../conformance-failure.js';
import { serverTimeZone } from '../checks/platform-check-helpers.js';
import { changeEntity, prepare, readEntity, withEntities } from './round-trip-place.js';
import {
  searchFields,
  searchTimePattern,
  searchWindow,
  updateTime,
  updatedBetween,
} from './search-place.js';

/** How many entities the walk pages through, and the most windows one walk may take. */
const ENTITIES = 3;
const MOST_WINDOWS = 100;

/**
 * The platform's incremental poll over searches: "updated since" read one entity a window while entities
 * change misses no change and repeats no version.
 */
export const searchPolling: ConformanceCheck = {
  id: 'platform.search-polling',
  name: '"updated since" searches read window by window while entities change miss no change and repeat none',
  async run(run) {
    const ready = await prepare(
      run,
      ['createEntity', 'getEntity', 'updateEntity', 'searchEntities'],
      true,
    );
    if ('skipped' in ready) return ready;
    const { platform, declared, place, roundTrip } = ready;
    const { idField, updated } = searchFields(place, roundTrip);
    if (updated === undefined)
      return {
        skipped:
          'the entity type declares no DATE_TIME field named as an update time: name it in roundTrip.search.updatedField',
      };
    const dates = {
      pattern: searchTimePattern(place),
      timeZone: await serverTimeZone(platform, declared),
    };
    // From a minute before the entities exist, so that an end system's clock a little behind still counts them.
    const since = run.now() - 60_000;
    const outcome = await withEntities(run, { ...ready, count: ENTITIES }, async (ids) => {
      const ours = new Set(ids);
      // An entity is unseen from its creation or its change until a window answers it.
      const unseen = new Set(ids);
      const changed = new Set<string>();
      // The first poll ends at the newest of the entities' update times, by the end system's own clock: a change
      // made during the walk then leaves the window, as the platform's next poll time is that end.
      // One call at a time: the kit tells which end-system calls and log lines belong to which request by when
      // they happen.
      const times: number[] = [];
      for (const entityId of ids)
        times.push(
          updateTime(
            await readEntity(platform, { declared, place, entityId }),
            updated,
            dates.timeZone,
          ),
        );
      const repeated = new Set<string>();
      // The second poll goes on from the first's end to a minute on, for a clock a little ahead.
      const polls = [
        { since, until: Math.max(...times) },
        { since: Math.max(...times), until: Math.max(run.now(), ...times) + 60_000 },
      ];
      for (const [poll, bounds] of polls.entries()) {
        const query = updatedBetween(updated.id, bounds, dates);
        const walk = new Set<string>();
        let nextPageLink: string | undefined;
        for (let window = 0; window < MOST_WINDOWS; window++) {
          const answer = await searchWindow(ready, query, {
            startIndex: window,
            maxResults: 1,
            ...(nextPageLink === undefined ? {} : { nextPageLink }),
          });
          for (const entity of answer.entities) {
            const id = String(entity.fields[idField]);
            if (!ours.has(id)) continue;
            const version = `${id}@${updateTime(entity, updated, dates.timeZone)}`;
            if (walk.has(version)) repeated.add(id);
            walk.add(version);
            unseen.delete(id);
            // In the first walk, after the first of its entities: change it. It moves to the end of a list by
            // update time, or out of the window: a list cut by offset then skips the one after it.
            if (poll === 0 && changed.size === 0) {
              await changeEntity(platform, { declared, place, entityId: id }, roundTrip.update);
              changed.add(id);
              unseen.add(id);
            }
          }
          nextPageLink = answer.nextPageLink;
          if (answer.entities.length === 0) break;
        }
      }
      if (repeated.size > 0)
        throw new ConformanceFailure(
          `An "updated since" search read one entity a window while entities changed answered entity ${[...repeated].map((id) => `'${id}'`).join(', ')} twice in one walk, in the same version: the platform reads it as two changes. Page by the (update time, id) of the last entity answered, not by offset (pollWindow in @connector-sdk/core does).`,
        );
      if (unseen.size > 0)
        throw new ConformanceFailure(
          `The kit created ${ENTITIES} entities and read "updated since" searches one entity a window, changing the first it read, then polled on from the first poll's end: the platform would miss ${[
            ...unseen,
          ]
            .map((id) => (changed.has(id) ? `the change of entity '${id}'` : `entity '${id}'`))
            .join(
              ', ',
            )}. A change between two windows moves an entity in a list by update time, or out of the window, and offsets then skip the next one: page by the (update time, id) of the last entity answered, with nextPageLink (pollWindow in @connector-sdk/core does).${[...unseen].some((id) => changed.has(id)) ? " An end system that stamps updates to the second stamps a change made in the second a poll ends in at or before its end, where the next poll does not look: read from a little before the poll time (pollWindow's overlapMs)." : ''}`,
        );
      return undefined;
    });
    return typeof outcome === 'string' ? { skipped: outcome } : undefined;
  },
};
