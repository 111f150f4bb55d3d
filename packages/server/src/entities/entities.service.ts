// Reading and editing entities: labels, tags and merges, scoped to the caller's workspace (an
// id of another workspace is "not found", never "forbidden").
import { ApiError, type ErrorDetail } from '../errors.ts';
import type { AuthContext } from '../workspace/auth.ts';
import { InvalidCursor } from '../store/cursor.ts';
import type { EntityRecord, EntityStore } from './entities.store.ts';
import { MAX_TAGS_PER_ENTITY, type Entity, type EntityListQuery, type EntityMergeBody } from './entities.schemas.ts';

export class EntitiesService {
  private readonly store: EntityStore;
  constructor(store: EntityStore) {
    this.store = store;
  }

  async list(auth: AuthContext, query: EntityListQuery): Promise<{ data: Entity[]; nextCursor: string | null }> {
    try {
      return await this.store.list(auth.workspaceId, {
        limit: query.limit ?? 20,
        ...(query.cursor !== undefined ? { cursor: query.cursor } : {}),
        ...(query.tag !== undefined ? { tag: query.tag } : {}),
        ...(query.q !== undefined ? { q: query.q } : {}),
        includeEmpty: query.include === 'empty',
      });
    } catch (err) {
      if (err instanceof InvalidCursor) throw new ApiError('VALIDATION_FAILED', err.message, { details: [{ path: '/query/cursor', message: err.message }] });
      throw err;
    }
  }

  async get(auth: AuthContext, id: string): Promise<Entity> {
    return found(await this.store.get(auth.workspaceId, id), id);
  }

  async setLabel(auth: AuthContext, id: string, label: string | null): Promise<Entity> {
    return found(await this.store.setLabel(auth.workspaceId, id, label), id);
  }

  async addTags(auth: AuthContext, id: string, tags: string[]): Promise<Entity> {
    const current = await this.get(auth, id);
    const merged = new Set([...current.tags, ...tags]);
    if (merged.size > MAX_TAGS_PER_ENTITY) {
      throw new ApiError('VALIDATION_FAILED', `An entity holds at most ${MAX_TAGS_PER_ENTITY} tags.`, {
        details: [{ path: '/tags', message: `would give the entity ${merged.size} tags; at most ${MAX_TAGS_PER_ENTITY} are allowed` }],
      });
    }
    return found(await this.store.addTags(auth.workspaceId, id, tags), id);
  }

  /** Removing a tag the entity does not have changes nothing and still answers the entity (DELETE is idempotent). */
  async removeTag(auth: AuthContext, id: string, tag: string): Promise<Entity> {
    return found(await this.store.removeTag(auth.workspaceId, id, tag), id);
  }

  /** Moves the appearances and tags of every `from` entity into `into` and deletes them. */
  async merge(auth: AuthContext, body: EntityMergeBody): Promise<Entity> {
    const rules: ErrorDetail[] = [];
    body.from.forEach((id, i) => {
      if (id === body.into) rules.push({ path: `/from/${i}`, message: 'must differ from into' });
    });
    if (rules.length) throw new ApiError('VALIDATION_FAILED', 'The request is not valid; see details.', { details: rules });
    const missing: ErrorDetail[] = [];
    if (!(await this.store.exists(auth.workspaceId, body.into))) missing.push({ path: '/into', message: `entity ${body.into} does not exist in this workspace` });
    for (const [i, id] of body.from.entries()) {
      if (!(await this.store.exists(auth.workspaceId, id))) missing.push({ path: `/from/${i}`, message: `entity ${id} does not exist in this workspace` });
    }
    if (missing.length) throw new ApiError('REFERENCE_NOT_FOUND', 'The request references entities that do not exist in this workspace.', { details: missing });
    return found(await this.store.merge(auth.workspaceId, body.into, [...new Set(body.from)]), body.into);
  }
}

function found(e: EntityRecord | null, id: string): Entity {
  if (!e) throw new ApiError('NOT_FOUND', `No entity ${id}.`);
  return e;
}
