// The dashboard's only way to the service: the project's SDK, with the key of the signed-in user.
// The key lives in this tab's sessionStorage (gone when the tab closes) and in memory; never in
// a URL, a cookie or localStorage.
import { APIError, Rapport, RapportError, ValidationError } from '@rapport/client';

export interface Session {
  client: Rapport;
  /** Admin keys also see the workspace pages. */
  admin: boolean;
  workspaceName: string | null;
}

const STORAGE_KEY = 'rapport.apiKey';

export function newClient(apiKey: string, fetchImpl?: typeof fetch): Rapport {
  return new Rapport({ apiKey, baseUrl: location.origin, maxRetries: 1, ...(fetchImpl ? { fetch: fetchImpl } : {}) });
}

/**
 * Checks the key with one request: the workspace answers admin keys, `403` standard ones (the key
 * is checked before its scope, so a `403` means a valid key), `401` unknown or revoked keys.
 */
export async function signIn(apiKey: string): Promise<Session> {
  const client = newClient(apiKey);
  let admin = false;
  let workspaceName: string | null = null;
  try {
    const ws = await client.workspace.retrieve();
    admin = true;
    workspaceName = ws.name;
  } catch (err) {
    if (!(err instanceof APIError && err.status === 403)) throw err;
  }
  sessionStorage.setItem(STORAGE_KEY, apiKey);
  return { client, admin, workspaceName };
}

export function storedKey(): string | null {
  try {
    return sessionStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}

export function forgetKey(): void {
  sessionStorage.removeItem(STORAGE_KEY);
}

export interface ErrorInfo {
  message: string;
  code: string | null;
  requestId: string | null;
  details: string[];
}

/** Any thrown value, in words: the API's message, code, field details and request id. */
export function describeError(err: unknown): ErrorInfo {
  if (err instanceof APIError) {
    const details = err instanceof ValidationError ? err.details.map((d) => `${d.path}: ${d.message}`) : [];
    return { message: err.message, code: err.code, requestId: err.requestId, details };
  }
  if (err instanceof RapportError) return { message: err.message, code: err.name, requestId: null, details: [] };
  if (err instanceof Error) return { message: err.message, code: null, requestId: null, details: [] };
  return { message: String(err), code: null, requestId: null, details: [] };
}
