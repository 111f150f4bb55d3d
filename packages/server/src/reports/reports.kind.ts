// Report jobs as a job kind (jobs/result-kind.ts, decisions §9): one target, profiled alone.
import type { JobKind } from '../jobs/result-kind.ts';
import { ReportJobRequest, ReportPayload } from './reports.schemas.ts';

export const REPORT: JobKind = {
  type: 'report',
  request: ReportJobRequest,
  payload: ReportPayload,
  base: '/v1/reports',
  resultParam: 'reportId',
  createRateClass: 'reportCreation',
  doc: {
    tag: 'reports',
    create: 'Create a report job',
    accepted: 'Accepted',
    byJob: 'The report of a job (null until it succeeded)',
    result: 'A report',
    resultDescription: 'The report payload',
    html: 'A report as one standalone HTML file (inline CSS and SVG figures, no script, nothing fetched)',
    evidence: 'The measurements behind a report (extension, as for matching results)',
    evidenceDescription: 'Evidence: the target\'s metrics, the method\'s constants',
  },
  names: { result: 'report', job: 'report job' },
  members: (body) => ({ target: body.target, group: [] }),
  ruleErrors: () => [],
  result: { idPrefix: 'rep', context: 'behavioral_profile', template: 'report', withGroup: false },
  build: (engine, input) => engine.buildReport({ target: input.target, media: input.media }),
  events: { completed: 'report.completed', failed: 'report.failed', resultField: 'reportId' },
};
