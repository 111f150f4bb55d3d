// Quotas of a workspace (issue 20, findings 9 and 11): how many active API keys it may hold and
// how many bytes of media it may store. The configuration gives the defaults (MAX_API_KEYS,
// MEDIA_QUOTA_BYTES); an operator may set other numbers for one workspace with
// `rapport workspace limits`, kept beside its rate limits.
import type { Config } from '../config.ts';

export interface Quotas {
  /** Active (not revoked) API keys. */
  apiKeys: number;
  /** Bytes of stored media (every upload that was kept, transcripts included). */
  mediaBytes: number;
}

/** The quotas an operator set for one workspace (the others follow the configuration). */
export type QuotaOverrides = Partial<Quotas>;

/** What a workspace holds, counted against its quotas. */
export type QuotaUsage = Quotas;

export function quotasOf(config: Pick<Config, 'maxApiKeys' | 'mediaQuotaBytes'>, overrides: QuotaOverrides | null): Quotas {
  return { apiKeys: overrides?.apiKeys ?? config.maxApiKeys, mediaBytes: overrides?.mediaBytes ?? config.mediaQuotaBytes };
}

export function quotasJson(q: QuotaOverrides | null): string | null {
  return q && Object.keys(q).length > 0 ? JSON.stringify(q) : null;
}

export function parseQuotas(json: string | null | undefined): QuotaOverrides | null {
  return json ? (JSON.parse(json) as QuotaOverrides) : null;
}

/** A change that would take a workspace over one of its quotas; nothing was written. */
export class QuotaExceeded extends Error {
  readonly quota: keyof Quotas;
  readonly limit: number;
  readonly used: number;
  constructor(quota: keyof Quotas, limit: number, used: number) {
    super(`${quota} quota of ${limit} reached (${used} used)`);
    this.name = 'QuotaExceeded';
    this.quota = quota;
    this.limit = limit;
    this.used = used;
  }
}
