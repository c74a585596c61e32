import type { ConformanceCheck } from '../checks/check-helpers.js';
import { ConformanceFailure } from '../conformance-failure.js';
import {
  callDeclared,
  expectShape,
  pathOf,
  serverTimeZone,
} from '../checks/platform-check-helpers.js';
import { differences } from './compare-values.js';
import { changeEntity, declaredName, prepare, readEntity, withEntity } from './round-trip-place.js';

/** An entity created, changed and commented on reads back as it was written. */
export const entityRoundTrip: ConformanceCheck = {
  id: 'platform.entity-round-trip',
  name: 'an entity created, changed and commented on reads back as it was written',
  async run(run) {
    const ready = await prepare(run, ['createEntity', 'getEntity', 'updateEntity'], true);
    if ('skipped' in ready) return ready;
    const { platform, declared, place, roundTrip } = ready;
    const timeZone = await serverTimeZone(platform, declared);
    const read = async (entityId: string) =>
      (await readEntity(platform, { declared, place, entityId })).fields;
    const notRun: string[] = [];
    const outcome = await withEntity(run, ready, async (entityId) => {
      const created = differences(roundTrip.create, await read(entityId), { ...place, timeZone });
      if (created.length > 0)
        throw new ConformanceFailure(
          `Entity '${entityId}', just created, reads back otherwise: ${created.join('; ')}. Map each field both ways with the same rules (ids, dates in the declared dateFormat, lists).`,
        );
      await changeEntity(platform, { declared, place, entityId }, roundTrip.update);
      const after = await read(entityId);
      // The platform sends only what changed: what it did not send must stay as it was.
      const kept = Object.fromEntries(
        Object.entries(roundTrip.create).filter(([name]) => !(name in roundTrip.update)),
      );
      const changed = [
        ...differences(roundTrip.update, after, { ...place, timeZone }),
        ...differences(kept, after, { ...place, timeZone }).map(
          (difference) => `${difference} (not sent with the change)`,
        ),
      ];
      if (changed.length > 0)
        throw new ConformanceFailure(
          `Entity '${entityId}', just changed, reads back otherwise: ${changed.join('; ')}. Set only the fields the platform sends, each mapped as it is read.`,
        );
      const add = declared.get('addComment');
      const list = declared.get('getComments');
      if (add === undefined || list === undefined) {
        notRun.push('the comment (it needs platform.addComment and platform.getComments)');
        return undefined;
      }
      const bodyName = declaredName(place.type, 'comments', 'bodyFieldName') ?? 'body';
      const text = `conformance comment ${entityId} ✓`;
      expectShape(
        'addComment',
        await platform.call({
          method: add.method,
          path: pathOf(add.pattern, { entityTypeId: place.entityTypeId, entityId }),
          query: { projectId: place.projectId },
          body: { [bodyName]: text },
        }),
      );
      const comments = expectShape(
        'getComments',
        await callDeclared(platform, list, {
          query: {
            projectId: place.projectId,
            startIndex: '0',
            maxResults: '100',
            afterTime: 'null',
          },
          params: { entityTypeId: place.entityTypeId, entityId },
        }),
      ) as { comments: Record<string, unknown>[] };
      if (!comments.comments.some((comment) => comment[bodyName] === text))
        throw new ConformanceFailure(
          `A comment added to entity '${entityId}' under '${bodyName}' (the entity type's comments.fieldNameInfo.bodyFieldName) is not among its comments read back (${comments.comments.length} read): answer comments under the declared names, and the body as it was sent.`,
        );
      return undefined;
    });
    if (typeof outcome === 'string') return { skipped: outcome };
    return notRun.length === 0 ? undefined : { note: `not run: ${notRun.join('; ')}` };
  },
};
