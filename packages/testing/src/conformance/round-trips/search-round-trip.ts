import type { ConformanceCheck } from '../checks/check-helpers.js';
import { ConformanceFailure } from '../conformance-failure.js';
import { serverTimeZone } from '../checks/platform-check-helpers.js';
import { prepare, withEntity } from './round-trip-place.js';
import { searchFields, searchTimePattern, searchWindow, updatedBetween } from './search-place.js';

/** The most windows of 100 the kit reads looking for its entity among those updated meanwhile. */
const MOST_WINDOWS = 20;

/**
 * An entity the kit created is found by the platform's two searches: by its id (and no other entity with it),
 * and as updated since a moment before it was created.
 */
export const searchRoundTrip: ConformanceCheck = {
  id: 'platform.search-round-trip',
  name: 'an entity just created is found by id, alone, and by "updated since"',
  async run(run) {
    const ready = await prepare(run, ['createEntity', 'searchEntities'], true);
    if ('skipped' in ready) return ready;
    const { platform, declared, place, roundTrip } = ready;
    const fields = searchFields(place, roundTrip);
    const dates = {
      pattern: searchTimePattern(place),
      timeZone: await serverTimeZone(platform, declared),
    };
    // From a minute before the entity exists, so that an end system's clock a little behind still counts it.
    const since = run.now() - 60_000;
    const outcome = await withEntity(run, ready, async (entityId) => {
      const byId = { field: fields.idField, condition: 'EQUALS', value: entityId };
      const found = await searchWindow(ready, byId, { startIndex: 0, maxResults: 100 });
      const ids = found.entities.map((entity) => String(entity.fields[fields.idField]));
      if (!ids.includes(entityId))
        throw new ConformanceFailure(
          `A search for ${fields.idField} EQUALS '${entityId}', the platform's lookup by id, did not find entity '${entityId}' just created (${ids.length} answered): answer the entity under its id field '${fields.idField}' (roundTrip.search.idField names another).`,
        );
      const others = ids.filter((id) => id !== entityId);
      if (others.length > 0)
        throw new ConformanceFailure(
          `A search for ${fields.idField} EQUALS '${entityId}' also answered ${others
            .slice(0, 3)
            .map((id) => `'${id}'`)
            .join(
              ', ',
            )}${others.length > 3 ? ` and ${others.length - 3} more` : ''}: the platform takes every entity a search answers as a match. Apply the whole query, or answer 400 for what the end system cannot search.`,
        );
      const updated = fields.updated;
      if (updated === undefined)
        return {
          note: 'not run: the search by update time (no DATE_TIME field named as an update time: name it in roundTrip.search.updatedField)',
        };
      // To a minute after now, for a clock a little ahead.
      const window = { since, until: run.now() + 60_000 };
      const between = updatedBetween(updated.id, window, dates);
      let nextPageLink: string | undefined;
      for (let page = 0; page < MOST_WINDOWS; page++) {
        const answer = await searchWindow(ready, between, {
          startIndex: page * 100,
          maxResults: 100,
          ...(nextPageLink === undefined ? {} : { nextPageLink }),
        });
        for (const entity of answer.entities) {
          if (String(entity.fields[fields.idField]) === entityId) return undefined;
        }
        nextPageLink = answer.nextPageLink;
        if (answer.entities.length < 100 && nextPageLink === undefined) break;
      }
      throw new ConformanceFailure(
        `A search for ${updated.id} between ${JSON.stringify(between.criterias.map((leaf) => leaf.value))}, the platform's poll, did not find entity '${entityId}' created just now: the platform would never see it. Answer every entity updated in the window, its time in the search's dateTimeFormat '${dates.pattern}' and the server's time zone '${dates.timeZone}'.`,
      );
    });
    return typeof outcome === 'string' ? { skipped: outcome } : outcome;
  },
};
