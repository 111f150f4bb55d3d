// The reads both job stores answer alike, by handing them to their event log and wait estimate
// (each store builds those for its own backend).
import type { JobEvent, JobEventLog } from './job-events.store.ts';
import type { WaitEstimate } from './wait-estimate.ts';

export abstract class JobStoreReads {
  protected abstract readonly events: JobEventLog;
  protected abstract readonly estimate: WaitEstimate;

  eventsAfter(jobId: string, afterSeq: number): Promise<JobEvent[]> {
    return this.events.eventsAfter(jobId, afterSeq);
  }

  workspaceEventsAfter(workspaceId: string, afterId: number, limit?: number): Promise<JobEvent[]> {
    return this.events.workspaceEventsAfter(workspaceId, afterId, limit);
  }

  latestWorkspaceEventId(workspaceId: string): Promise<number> {
    return this.events.latestWorkspaceEventId(workspaceId);
  }

  prunedWorkspaceEventId(workspaceId: string): Promise<number> {
    return this.events.prunedWorkspaceEventId(workspaceId);
  }

  activeCount(workspaceId: string): Promise<number> {
    return this.estimate.activeCount(workspaceId);
  }

  recentDurationSec(workspaceId: string): Promise<number | null> {
    return this.estimate.recentDurationSec(workspaceId);
  }
}
