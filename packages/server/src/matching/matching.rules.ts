// The matching request's own rules that a JSON Schema does not express well: the group's size,
// and no member that is visibly the target itself (decisions §14), each reported with its JSON
// Pointer. The rules every job kind shares are in jobs/job-request.rules.ts.
import type { ErrorDetail } from '../errors.ts';
import type { Member, Selector } from '../jobs/job-request.schemas.ts';
import { MAX_GROUP } from './matching.schemas.ts';

export function groupRuleErrors(group: Member[]): ErrorDetail[] {
  return group.length > MAX_GROUP ? [{ path: '/group', message: `must hold at most ${MAX_GROUP} items` }] : [];
}

/** The entity a member names outright: an entity reference, or a media selector by entity. */
function namedEntity(m: Member): string | null {
  if (m.type === 'entity_id') return m.entityId;
  return m.selector.strategy === 'entity_id' && typeof m.selector.entity_id === 'string' ? m.selector.entity_id : null;
}

/** The fields of a selector that decide whom it picks when it hits (fields a strategy does not use are ignored, §5). */
function selectorKey(s: Selector): string {
  switch (s.strategy) {
    case 'dominant':
      return 'dominant';
    case 'entity_id':
      return `entity|${s.entity_id ?? ''}`;
    case 'magic_hint':
      return `hint|${(s.hint ?? '').trim().toLowerCase()}`;
    case 'speaker_index':
      return `index|${s.speaker_index ?? ''}`;
    case 'timerange':
      return `time|${s.timerange?.start_seconds ?? ''}|${s.timerange?.end_seconds ?? ''}`;
  }
}

/**
 * Decisions §14: a group member that is visibly the target (the same entity, or the same media
 * with the same selector) is refused at creation. What only shows at resolution fails the job
 * with `target_in_group` (jobs/job.runner.ts).
 */
export function selfMatchErrors(target: Member, group: Member[]): ErrorDetail[] {
  const targetEntity = namedEntity(target);
  const errors: ErrorDetail[] = [];
  group.forEach((m, i) => {
    const entity = namedEntity(m);
    const sameEntity = targetEntity !== null && entity === targetEntity;
    const sameSpeaker = m.type === 'media_target' && target.type === 'media_target' && m.mediaId === target.mediaId && selectorKey(m.selector) === selectorKey(target.selector);
    if (sameEntity || sameSpeaker) {
      errors.push({ path: `/group/${i}`, message: 'is the target itself: a person cannot be matched with themself (decisions §14)' });
    }
  });
  return errors;
}
