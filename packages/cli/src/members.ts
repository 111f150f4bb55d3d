// The command line's way of writing a matching member (target or group item):
//   entity:ID
//   media:ID                 the dominant speaker
//   media:ID:dominant
//   media:ID:index=N         speaker N (0 = first to speak)
//   media:ID:time=A-B        who speaks most between A and B (seconds or m:ss; either end may be empty)
//   media:ID:entity=ENT      the speaker of that media linked to entity ENT
//   media:ID:hint=TEXT       the speaker a free-text hint describes (TEXT may hold ':' and spaces)
import type { Member, Selector } from '@rapport/client';
import { UsageError } from './usage-error.ts';

export const MEMBER_SYNTAX = 'entity:ID or media:ID[:dominant|:index=N|:time=A-B|:entity=ID|:hint=TEXT]';

/** Seconds from `90`, `90.5`, `1:30` or `1:02:03`. */
export function parseTime(text: string, what: string): number {
  if (!/^\d+(\.\d+)?$|^\d+(:\d{1,2}){1,2}(\.\d+)?$/.test(text)) throw new UsageError(`${what}: "${text}" is not a time (seconds or m:ss)`);
  return text.split(':').reduce((acc, part) => acc * 60 + Number(part), 0);
}

function selectorOf(spec: string, where: string): Selector {
  if (spec === '' || spec === 'dominant') return { strategy: 'dominant' };
  const eq = spec.indexOf('=');
  const key = eq < 0 ? spec : spec.slice(0, eq);
  const value = eq < 0 ? '' : spec.slice(eq + 1);
  if (eq < 0 || value === '') throw new UsageError(`${where}: selector "${spec}" needs a value (${MEMBER_SYNTAX})`);
  switch (key) {
    case 'index': {
      if (!/^\d+$/.test(value)) throw new UsageError(`${where}: index must be a whole number, got "${value}"`);
      return { strategy: 'speaker_index', speaker_index: Number(value) };
    }
    case 'time': {
      const m = /^([^-]*)-([^-]*)$/.exec(value);
      if (!m) throw new UsageError(`${where}: time must be A-B, got "${value}"`);
      const start = m[1] ? parseTime(m[1], where) : null;
      const end = m[2] ? parseTime(m[2], where) : null;
      if (start !== null && end !== null && start >= end) throw new UsageError(`${where}: time range must start before it ends`);
      return { strategy: 'timerange', timerange: { start_seconds: start, end_seconds: end } };
    }
    case 'entity':
      return { strategy: 'entity_id', entity_id: value };
    case 'hint':
      return { strategy: 'magic_hint', hint: value };
    default:
      throw new UsageError(`${where}: unknown selector "${key}" (${MEMBER_SYNTAX})`);
  }
}

export function parseMember(text: string, where: string, onMiss?: 'fallback_dominant' | 'error'): Member {
  const first = text.indexOf(':');
  const kind = first < 0 ? text : text.slice(0, first);
  const rest = first < 0 ? '' : text.slice(first + 1);
  if (kind === 'entity') {
    if (!rest || rest.includes(':')) throw new UsageError(`${where}: expected entity:ID, got "${text}"`);
    return { type: 'entity_id', entityId: rest };
  }
  if (kind === 'media') {
    const second = rest.indexOf(':');
    const mediaId = second < 0 ? rest : rest.slice(0, second);
    if (!mediaId) throw new UsageError(`${where}: expected media:ID, got "${text}"`);
    const selector = selectorOf(second < 0 ? '' : rest.slice(second + 1), where);
    if (onMiss) selector.on_miss = onMiss;
    return { type: 'media_target', mediaId, selector };
  }
  throw new UsageError(`${where}: "${text}" is not a member (${MEMBER_SYNTAX})`);
}
