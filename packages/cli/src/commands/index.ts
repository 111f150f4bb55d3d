// The API commands, by their words. Admin words (serve, workspace, key, secret, credits grant)
// never reach this table: main.ts sends them to the server package.
import type { Command } from '../context.ts';
import { credits, creditsTransactions, feedback, webhooksDeliveries, webhooksDelivery, webhooksRedeliver } from './account.ts';
import { entitiesGet, entitiesLabel, entitiesList, entitiesMerge, entitiesMetrics, entitiesTag, entitiesUntag } from './entities.ts';
import { filesDelete, filesDiarization, filesGet, filesList, filesMetrics, filesReanalyze, upload } from './files.ts';
import { jobsCancel, jobsGet, jobsList, jobsWatch, match, report } from './jobs.ts';
import { result } from './result.ts';

export const COMMANDS: Record<string, Command> = {
  upload,
  'files list': filesList,
  'files get': filesGet,
  'files delete': filesDelete,
  'files reanalyze': filesReanalyze,
  'files diarization': filesDiarization,
  'files metrics': filesMetrics,
  match,
  report,
  'jobs watch': jobsWatch,
  'jobs get': jobsGet,
  'jobs list': jobsList,
  'jobs cancel': jobsCancel,
  result,
  'entities list': entitiesList,
  'entities get': entitiesGet,
  'entities label': entitiesLabel,
  'entities tag': entitiesTag,
  'entities untag': entitiesUntag,
  'entities merge': entitiesMerge,
  'entities metrics': entitiesMetrics,
  credits,
  'credits transactions': creditsTransactions,
  'webhooks deliveries': webhooksDeliveries,
  'webhooks delivery': webhooksDelivery,
  'webhooks redeliver': webhooksRedeliver,
  feedback,
};
