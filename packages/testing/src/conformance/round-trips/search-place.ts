import { formatJavaDate, parseJavaDate } from '@connector-sdk/core';
import type { PlatformSimulator } from '../../simulator/platform-simulator.js';
import { ConformanceFailure } from '../conformance-failure.js';
import type { DeclaredOperation } from '../declared-operations.js';
import { expectShape, pathOf } from '../checks/platform-check-helpers.js';
import type { RoundTripOptions } from './round-trip-options.js';
import { idFieldOf, type Declared, type Place } from './round-trip-place.js';

// What the search checks share: the fields they name in the platform's search tree, the times they send in the
// declared pattern, one window of a search as the platform asks for it, and an answered entity's update time.

/** A field of the entity type as it declares it. */
interface TypeField {
  readonly id?: unknown;
  readonly dataType?: unknown;
  readonly dateFormat?: unknown;
}

/** The names an update-time field goes by: `updated`, `updated_on`, `modified`, `lastModified`, `changed`, … */
const UPDATE_NAME = /^(last_?)?(updated?|modified|changed)(_?(at|on|date|time|date_?time))?$/i;

/** The fields the search checks name: the id, and the update time with its pattern when the kit knows it. */
export interface SearchFields {
  readonly idField: string;
  readonly updated?: { readonly id: string; readonly pattern?: string };
}

/** The fields to search on: `roundTrip.search`, else the id field and the one update-time field declared. */
export function searchFields(place: Place, roundTrip: RoundTripOptions): SearchFields {
  const fields = Array.isArray(place.type.fields) ? (place.type.fields as TypeField[]) : [];
  const idField = roundTrip.search?.idField ?? idFieldOf(place, roundTrip);
  const named = roundTrip.search?.updatedField;
  const candidates =
    named === undefined
      ? fields.filter(
          (field) =>
            field.dataType === 'DATE_TIME' &&
            typeof field.id === 'string' &&
            UPDATE_NAME.test(field.id),
        )
      : fields.filter((field) => field.id === named);
  const field = candidates.length === 1 ? candidates[0] : undefined;
  const id = named ?? (field?.id as string | undefined);
  if (id === undefined) return { idField };
  const pattern = typeof field?.dateFormat === 'string' ? field.dateFormat : undefined;
  return { idField, updated: pattern === undefined ? { id } : { id, pattern } };
}

/** The pattern the platform writes search times in, as the entity type declares it. */
export function searchTimePattern(place: Place): string {
  const info = place.type.searchEntityInfo as { dateTimeFormat?: unknown } | undefined;
  return typeof info?.dateTimeFormat === 'string'
    ? info.dateTimeFormat
    : "yyyy-MM-dd'T'HH:mm:ss.SSSXXX";
}

/** The platform's poll: updated after `since` and at most `until`, both written as the platform writes them. */
export function updatedBetween(
  field: string,
  window: { readonly since: number; readonly until: number },
  dates: { readonly pattern: string; readonly timeZone: string },
) {
  return {
    condition: 'AND',
    criterias: [
      {
        field,
        condition: 'GREATER_THAN',
        value: formatJavaDate(window.since, dates.pattern, dates.timeZone),
      },
      {
        field,
        condition: 'LESS_THAN_EQUALS',
        value: formatJavaDate(window.until, dates.pattern, dates.timeZone),
      },
    ],
  };
}

/** One window of a search, as the platform asks for it; fails unless answered 200 in the documented shape. */
export async function searchWindow(
  target: {
    readonly platform: PlatformSimulator;
    readonly declared: Declared;
    readonly place: Place;
  },
  query: unknown,
  window: {
    readonly startIndex: number;
    readonly maxResults: number;
    readonly nextPageLink?: string;
  },
): Promise<{ entities: { fields: Record<string, unknown> }[]; nextPageLink?: string }> {
  const { platform, declared, place } = target;
  const search = declared.get('searchEntities') as DeclaredOperation;
  const response = await platform.call({
    method: search.method,
    path: pathOf(search.pattern, { entityTypeId: place.entityTypeId }),
    query: {
      projectId: place.projectId,
      startIndex: String(window.startIndex),
      maxResults: String(window.maxResults),
      ...(window.nextPageLink === undefined ? {} : { nextPageLink: window.nextPageLink }),
    },
    body: { query },
  });
  if (response.status === 400)
    throw new ConformanceFailure(
      `platform.searchEntities answered 400${response.code === undefined ? '' : ` ${response.code}`} to ${JSON.stringify(query)}, a search the platform sends: answer it, or name other fields in roundTrip.search.`,
    );
  return expectShape('searchEntities', response) as {
    entities: { fields: Record<string, unknown> }[];
    nextPageLink?: string;
  };
}

/** When an answered entity was last updated (epoch ms), read in the field's declared pattern. */
export function updateTime(
  entity: { readonly fields: Readonly<Record<string, unknown>> },
  updated: NonNullable<SearchFields['updated']>,
  timeZone: string,
): number {
  const value = entity.fields[updated.id];
  let time = Number.NaN;
  if (typeof value === 'number') time = value;
  else if (typeof value === 'string') {
    try {
      time =
        updated.pattern === undefined
          ? Date.parse(value)
          : parseJavaDate(value, updated.pattern, timeZone).getTime();
    } catch {
      time = Number.NaN;
    }
  }
  if (Number.isFinite(time)) return time;
  throw new ConformanceFailure(
    `platform.searchEntities answered an entity whose '${updated.id}' (${JSON.stringify(value) ?? 'nothing'}) is no time${updated.pattern === undefined ? '' : ` in its declared dateFormat '${updated.pattern}'`}: the platform cannot tell when it changed. Answer the update time of every entity a search finds.`,
  );
}
