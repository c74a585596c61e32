// The platform operations of the parts a declarative connector declares: comments, attachments and history of
// entity types, users and lookup values. Each is served only when some declaration has it, so the platform sees
// the operations the end system can answer and no others.
import { ValidationError } from '../errors/errors.js';
import type { PlatformBuilders } from '../platform/platform-builders.js';
import { parseItem } from './calls/endpoint.js';
import {
  addComment,
  deleteAttachment,
  downloadAttachment,
  readComments,
  uploadAttachment,
} from './calls/entity-parts.js';
import { readFields } from './mapping/field-mapping.js';
import type { RevisionTools } from './declaration/part-spec.js';
import type { RestEntity } from './rest-entity.js';
import { findUsers, lookupValues } from './calls/rest-directory.js';
import { readHistory } from './calls/rest-history.js';
import type { RestScope } from './rest-scope.js';

type PartName = 'comments' | 'attachments' | 'history' | 'commentHistory';

/** The part an entity type declares, or a 400 saying it has none. */
function partOf<S, K extends PartName>(entity: RestEntity<S>, name: K) {
  const part = entity.spec[name];
  if (part === undefined)
    throw new ValidationError(`${entity.spec.name} has no ${name} in this end system`);
  return part as NonNullable<RestEntity<S>['spec'][K]>;
}

/** What a history's function may use: the entity's comments as the platform reads them. */
function toolsOf<S>(entity: RestEntity<S>): RevisionTools {
  const comments = entity.spec.comments;
  return {
    comment: (comment) => {
      if (comments === undefined) throw new TypeError(`${entity.spec.name} declares no comments`);
      return readFields(comments.fields, parseItem(comments.schema, comment, 'comment'));
    },
  };
}

/**
 * The parts' platform operations.
 *
 * @internal
 */
export function partOperations<TSession>(
  platform: PlatformBuilders<TSession>,
  scope: RestScope<TSession>,
) {
  const { description, callOf, entities, users, typed, entityCall, serverInfo, timeZone } = scope;
  const declared = (name: PartName) =>
    Object.values(entities).some((entity) => entity.spec[name] !== undefined);
  const cap = serverInfo.maxResults;
  const history = (name: 'history' | 'commentHistory') =>
    platform[name === 'history' ? 'entityHistory' : 'commentHistory'](
      ({ params, query, ...context }) => {
        const ids = { entityTypeId: params.entityTypeId, projectId: query.projectId };
        // One entity's history (`entityId`) names it to the journal's path too, checked like any entity id.
        const { entity, call } =
          query.entityId === undefined
            ? { entity: typed(ids.entityTypeId, ids.projectId), call: callOf(context, ids) }
            : entityCall(context, { ...ids, id: query.entityId });
        return readHistory(partOf(entity, name), call, {
          query,
          context: { timeZone, cap, tools: toolsOf(entity) },
        });
      },
    );
  return {
    ...(declared('comments')
      ? {
          addComment: platform.addComment(({ params, query, body, ...context }) => {
            const ids = {
              entityTypeId: params.entityTypeId,
              projectId: query.projectId,
              id: params.entityId,
            };
            const { entity, call } = entityCall(context, ids);
            return addComment(partOf(entity, 'comments'), call, body);
          }),
          getComments: platform.getComments(({ params, query, ...context }) => {
            const ids = {
              entityTypeId: params.entityTypeId,
              projectId: query.projectId,
              id: params.entityId,
            };
            const { entity, call } = entityCall(context, ids);
            return readComments(partOf(entity, 'comments'), call, { ...query, cap });
          }),
        }
      : {}),
    ...(declared('attachments')
      ? {
          attachmentContent: platform.attachmentContent(({ params, query, ...context }) => {
            const entity = typed(params.entityTypeId, query.projectId ?? null);
            partOf(entity, 'attachments');
            const ids = { entityTypeId: params.entityTypeId, projectId: query.projectId ?? null };
            return downloadAttachment(callOf(context, ids), query.contentUri);
          }),
          createAttachment: platform.createAttachment(({ params, query, body, ...context }) => {
            const ids = {
              entityTypeId: params.entityTypeId,
              projectId: query.projectId,
              id: params.entityId,
            };
            const { entity, call } = entityCall(context, ids);
            return uploadAttachment(partOf(entity, 'attachments'), call, body);
          }),
          deleteAttachment: platform.deleteAttachment(({ params, query, ...context }) => {
            const ids = {
              entityTypeId: params.entityTypeId,
              projectId: query.projectId,
              id: params.entityId,
            };
            const { entity, call } = entityCall(context, ids);
            return deleteAttachment(partOf(entity, 'attachments'), call, query.attachmentId);
          }),
        }
      : {}),
    ...(declared('history') ? { entityHistory: history('history') } : {}),
    ...(declared('commentHistory') ? { commentHistory: history('commentHistory') } : {}),
    ...(users === undefined
      ? {}
      : {
          users: platform.users(({ query, ...context }) => {
            return findUsers(
              users,
              callOf(context, { entityTypeId: '', projectId: query.projectId }),
              query,
            );
          }),
        }),
    ...(description.lookups === undefined
      ? {}
      : {
          lookupValues: platform.lookupValues(({ params, query, ...context }) => {
            const ids = {
              entityTypeId: query.entityTypeId ?? '',
              projectId: query.projectId ?? null,
            };
            return lookupValues(description.lookups ?? {}, callOf(context, ids), params.fieldId);
          }),
        }),
  };
}
