// The matching request's own rule that a JSON Schema does not express well: the group's size,
// reported with its JSON Pointer (the schema also bounds it; this names the fault). The rules
// every job kind shares are in jobs/job-request.rules.ts.
import type { ErrorDetail } from '../http/errors.ts';
import type { Member } from '../jobs/job-request.schemas.ts';
import { MAX_GROUP } from './matching.schemas.ts';

export function groupRuleErrors(group: Member[]): ErrorDetail[] {
  return group.length > MAX_GROUP ? [{ path: '/group', message: `must hold at most ${MAX_GROUP} items` }] : [];
}
