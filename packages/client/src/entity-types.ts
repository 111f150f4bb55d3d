// Entities, the people tracked across media by voice (decisions.md §7, §16): the resource, its
// list parameters and the request bodies that rename, tag and merge them.
import type { Id, ListParams, Timestamp } from './common-types.ts';

export interface Entity {
  id: Id;
  label: string | null;
  /** What people read: the label, else "Speaker 2 in interview.wav" (its first appearance). */
  name: string;
  tags: string[];
  speechSec: number;
  /** Enough speech to judge the voice (decisions §16). */
  enough: boolean;
  appearances: EntityAppearance[];
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

/** One media the entity speaks in, as which speaker, and for how long (seconds). */
export interface EntityAppearance {
  mediaId: Id;
  speakerIndex: number;
  speechSec: number;
}

export interface EntityListParams extends ListParams {
  tag?: string;
  q?: string;
  /** `empty`: also entities with no appearance left (not listed by default). */
  include?: 'empty';
}

// ---- request bodies ----

export interface EntityUpdateParams {
  /** A name; null clears it. */
  label: string | null;
}

export interface EntityTagParams {
  tags: string[];
}

export interface EntityMergeParams {
  into: Id;
  from: Id[];
}
