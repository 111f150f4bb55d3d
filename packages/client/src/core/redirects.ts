// Redirects are followed by the SDK itself, never by fetch: fetch keeps every header but
// `Authorization` when a redirect leads to another origin, so a 302 or 307 from the base URL (a
// misconfigured proxy, a taken-over host) would hand `Service-Api-Key` to whoever it names. Only a
// redirect to the base URL's own origin is followed; any other is thrown as a RedirectError.
import { RedirectError } from './errors.ts';

export const MAX_REDIRECTS = 5;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** What to do with an answer: `null` when it is no redirect, else the URL to ask next. */
export function redirectTarget(res: Response, from: string, method: string, hops: number): string | null {
  // A browser hides a manual redirect's status and Location (an "opaque redirect"): nothing to check, so refused.
  if (res.type === 'opaqueredirect') {
    throw new RedirectError(`The service at ${from} answered a redirect that the SDK cannot inspect in this runtime; set baseUrl to the address it redirects to`, { status: res.status, location: null });
  }
  if (!REDIRECT_STATUSES.has(res.status)) return null;
  const location = res.headers.get('location');
  if (location === null) return null;
  let target: URL;
  try {
    target = new URL(location, from);
  } catch {
    throw new RedirectError(`The service at ${from} answered ${res.status} with an invalid Location`, { status: res.status, location });
  }
  if (target.origin !== new URL(from).origin) {
    throw new RedirectError(
      `Refused a ${res.status} redirect from ${new URL(from).origin} to ${target.origin}: the API key is only ever sent to the base URL's origin; set baseUrl to ${target.origin} if you trust it`,
      { status: res.status, location: target.toString() },
    );
  }
  // 301/302/303 turn a request with a body into a GET in fetch's rules: for an API that silently
  // drops the body (a job creation would become a read), so only GET and DELETE follow them.
  if (res.status !== 307 && res.status !== 308 && method !== 'GET' && method !== 'DELETE') {
    throw new RedirectError(`Refused a ${res.status} redirect of a ${method} (it would be re-sent as a GET without its body)`, { status: res.status, location: target.toString() });
  }
  if (hops >= MAX_REDIRECTS) {
    throw new RedirectError(`More than ${MAX_REDIRECTS} redirects from ${from}`, { status: res.status, location: target.toString() });
  }
  return target.toString();
}
