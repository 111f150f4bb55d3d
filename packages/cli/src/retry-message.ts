// What the CLI says while the SDK waits to retry (ClientOptions.onRetry). Apart from context.ts so
// that it loads without the SDK's build (its tests run from source).
import type { RetryNotice } from '@rapport/client';

/** Why the CLI is waiting before it tries again (issue 40 item 9: uploads waited on the rate limit without a word). */
export function retryMessage(r: RetryNotice): string {
  const wait = r.waitSec >= 1 ? `${Math.ceil(r.waitSec)} s` : `${Math.round(r.waitSec * 1000)} ms`;
  const why = r.reason === 'rate_limited' ? "the service's rate limit was reached (429)" : r.reason === 'unavailable' ? 'the service is unavailable for now (503)' : r.reason === 'network' ? 'the service did not answer' : `the service answered ${r.status ?? 'an error'}`;
  return `waiting ${wait} before trying again (attempt ${r.attempt + 1}): ${why}`;
}
