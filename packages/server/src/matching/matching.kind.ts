// Matching jobs as a job kind (jobs/result-kind.ts): a target compared with a group of 1 to 20.
import type { JobKind, JobRequest } from '../jobs/result-kind.ts';
import { MatchingJobRequest, MatchingPayload } from './matching.schemas.ts';
import { groupRuleErrors, selfMatchErrors } from './matching.rules.ts';

export const MATCHING: JobKind = {
  type: 'matching',
  request: MatchingJobRequest,
  payload: MatchingPayload,
  base: '/v1/matching',
  resultParam: 'matchingId',
  doc: {
    tag: 'matching',
    create: 'Create a matching job',
    accepted: 'Accepted; the job runs asynchronously',
    byJob: 'The matching result of a job (null until it succeeded)',
    result: 'A matching result',
    resultDescription: 'The matching payload',
    html: 'A matching result as one standalone HTML file (inline CSS and SVG figures, no script, nothing fetched)',
    evidence: 'The measurements behind a matching result',
    evidenceDescription: 'Evidence: per-member metrics, per-pair component scores, inputs and confidence',
  },
  names: { result: 'matching result', job: 'matching job' },
  members: (body: JobRequest) => ({ target: body.target, group: (body as MatchingJobRequest).group }),
  ruleErrors: (body: JobRequest) => {
    const group = (body as MatchingJobRequest).group;
    return [...groupRuleErrors(group), ...selfMatchErrors(body.target, group)];
  },
  result: { idPrefix: 'mat', context: 'behavioral_compatibility', template: 'matching', withGroup: true },
  build: (engine, input) => engine.buildMatching(input),
  events: { completed: 'matching.completed', failed: 'matching.failed', resultField: 'matchingId' },
};
