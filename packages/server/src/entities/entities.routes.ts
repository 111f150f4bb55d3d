// HTTP routes of entities (decisions §7): thin handlers over EntitiesService.
import type { FastifyInstance } from 'fastify';
import type { TSchema } from 'typebox';
import type { Services } from '../compose/services.ts';
import { requireAuth } from '../workspace/auth.ts';
import { IdParams, ListOf } from '../http/schema-helpers.ts';
import { Entity, EntityListQuery, EntityMergeBody, EntityPatch, EntityTagParams, EntityTagsBody } from './entities.schemas.ts';

export function registerEntityRoutes(app: FastifyInstance, services: Services): void {
  const entities = services.entities;
  const doc = (summary: string, description: string, schema: TSchema = Entity) => ({
    rateClass: 'entities' as const,
    doc: { summary, tags: ['entities'], responses: { 200: { description, schema } } },
  });

  app.get('/v1/entities', {
    schema: { querystring: EntityListQuery },
    config: doc('List entities, newest first (?tag= exact tag, ?q= label contains; both case-insensitive)', 'A page of entities', ListOf(Entity)),
  }, async (req) => entities.list(requireAuth(req.auth), req.query as EntityListQuery));

  // Registered before /v1/entities/:id routes that share the prefix, for readability only:
  // fastify prefers the static segment `merge` over the `:id` parameter either way.
  app.post('/v1/entities/merge', {
    schema: { body: EntityMergeBody },
    config: doc('Merge entities into one: appearances and tags of `from` move to `into`, `from` is deleted', 'The merged entity'),
  }, async (req) => entities.merge(requireAuth(req.auth), req.body as EntityMergeBody));

  app.get('/v1/entities/:id', {
    schema: { params: IdParams },
    config: doc('An entity with its appearances', 'The entity'),
  }, async (req) => entities.get(requireAuth(req.auth), (req.params as IdParams).id));

  app.patch('/v1/entities/:id', {
    schema: { params: IdParams, body: EntityPatch },
    config: doc('Set or clear (null) the label of an entity', 'The entity'),
  }, async (req) => entities.setLabel(requireAuth(req.auth), (req.params as IdParams).id, (req.body as EntityPatch).label));

  app.post('/v1/entities/:id/tags', {
    schema: { params: IdParams, body: EntityTagsBody },
    config: doc('Add tags to an entity (tags it already has are kept once)', 'The entity'),
  }, async (req) => entities.addTags(requireAuth(req.auth), (req.params as IdParams).id, (req.body as EntityTagsBody).tags));

  app.delete('/v1/entities/:id/tags/:tag', {
    schema: { params: EntityTagParams },
    config: doc('Remove a tag from an entity (idempotent)', 'The entity'),
  }, async (req) => {
    const p = req.params as EntityTagParams;
    return entities.removeTag(requireAuth(req.auth), p.id, p.tag);
  });
}
