// The webhook destination rules of decisions §8 applied when a job is created, so that a URL
// they refuse is a 400 naming the rule and the setting that allows it, instead of a job whose
// every delivery fails. What the URL alone shows is checked here (plain http under
// WEBHOOK_REQUIRE_HTTPS, a literal loopback, private or otherwise non-public address, a
// `localhost` name); a name that resolves to such an address is still refused at delivery,
// on the address actually connected to (address-guard.ts).
import type { ErrorDetail } from '../errors.ts';
import { refuseLiteralHost } from './address-guard.ts';

export interface DestinationRules {
  /** WEBHOOK_ALLOW_PRIVATE. */
  allowPrivate: boolean;
  /** WEBHOOK_REQUIRE_HTTPS. */
  requireHttps: boolean;
}

/** The refusals of `url` under the rules, as details at `at` (none for a URL the schema rules already refuse). */
export function destinationErrors(url: string, rules: DestinationRules, at = '/webhook/url'): ErrorDetail[] {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return [];
  }
  const errors: ErrorDetail[] = [];
  if (rules.requireHttps && parsed.protocol === 'http:') {
    errors.push({ path: at, message: 'must use https: this service refuses plain http webhooks (WEBHOOK_REQUIRE_HTTPS=true; unset it to allow http)' });
  }
  if (!rules.allowPrivate) {
    const host = parsed.hostname.toLowerCase();
    if (host === 'localhost' || host.endsWith('.localhost')) {
      errors.push({ path: at, message: `refused: ${host} is a loopback address; webhooks only go to public addresses (WEBHOOK_ALLOW_PRIVATE=true allows it)` });
    } else {
      const blocked = refuseLiteralHost(parsed.hostname, { allowPrivate: false });
      if (blocked) errors.push({ path: at, message: blocked.message });
    }
  }
  return errors;
}
