import { formatJavaDate } from '@connector-sdk/core';
import type { ConformanceCheck } from '../checks/check-helpers.js';
import { ConformanceFailure } from '../conformance-failure.js';
import type { DeclaredOperation } from '../declared-operations.js';
import { callDeclared, expectShape } from '../checks/platform-check-helpers.js';
import { changeEntity, prepare, revisionPattern, withEntity } from './round-trip-place.js';

/** The kit's own change shows in history as made by the integration user. */
export const ownChangeIdentity: ConformanceCheck = {
  id: 'platform.own-change-identity',
  name: "the kit's own change shows in history as made by the integration user, as notUpdatedByUser names it",
  async run(run) {
    const ready = await prepare(run, ['updateEntity', 'entityHistory', 'serverInfo']);
    if ('skipped' in ready) return ready;
    const { platform, declared, place, roundTrip } = ready;
    const info = expectShape(
      'serverInfo',
      await callDeclared(platform, declared.get('serverInfo') as DeclaredOperation),
    ) as {
      timeZone?: string;
      integrationUserInfo: { fieldInternalName: string; userDataType: string };
    };
    const { fieldInternalName, userDataType } = info.integrationUserInfo;
    const entry = platform.config.find((item) => item.key === fieldInternalName);
    if (entry === undefined)
      return {
        skipped: `the configuration has no '${fieldInternalName}', the field server info names the integration user by`,
      };
    const integrationUser = entry.value;
    const shown = entry.sensitive ? `the value of '${fieldInternalName}'` : `'${integrationUser}'`;
    const pattern = revisionPattern(place);
    const timeZone = info.timeZone ?? 'UTC';
    const outcome = await withEntity(run, ready, async (entityId) => {
      // From a minute before the change, so that an end system's clock a little behind still counts it.
      const since = formatJavaDate(run.now() - 60_000, pattern, timeZone);
      await changeEntity(platform, { declared, place, entityId }, roundTrip.update);
      const history = declared.get('entityHistory') as DeclaredOperation;
      const answer = expectShape(
        'entityHistory',
        await callDeclared(platform, history, {
          query: {
            projectId: place.projectId,
            entityId,
            since,
            startIndex: '0',
            maxResults: '100',
          },
          params: { entityTypeId: place.entityTypeId },
        }),
      ) as { revisions: { entityId?: string; updatedBy?: unknown }[] };
      const own = answer.revisions.filter((revision) => String(revision.entityId) === entityId);
      if (own.length === 0)
        throw new ConformanceFailure(
          `After the kit changed entity '${entityId}', its history since ${since} has no revision of it: the platform recovers changes from history, and would miss this one.`,
        );
      const authors = [...new Set(own.map((revision) => String(revision.updatedBy)))];
      if (!authors.includes(integrationUser))
        throw new ConformanceFailure(
          `The kit's own change to entity '${entityId}' shows in history as made by ${authors.map((author) => `'${author}'`).join(', ')}, not by the integration user (${shown}, the configuration field server info names, as ${userDataType}). ` +
            `The platform asks for history with notUpdatedByUser set to that value and compares it with updatedBy: named any other way, its own changes are never filtered out and a sync echoes its own writes back. Answer updatedBy as the user's ${userDataType === 'EMAIL_AS_USER' ? 'email' : 'username'}.`,
        );
      return undefined;
    });
    return typeof outcome === 'string' ? { skipped: outcome } : undefined;
  },
};
