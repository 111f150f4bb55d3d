// Who a request acts as: the workspace and key its API key authenticated.
import type { KeyScope, RateLimitOverrides } from './workspace.store.ts';

export interface AuthContext {
  workspaceId: string;
  keyId: string;
  scope: KeyScope;
  /** The workspace's own rate limits, where an operator set them (decisions §4). */
  rateLimits?: RateLimitOverrides;
}

export function requireAuth(auth: AuthContext | null): AuthContext {
  if (!auth) throw new Error('route reached without authentication');
  return auth;
}
