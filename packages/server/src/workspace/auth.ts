// Who a request acts as: the workspace and key its API key authenticated.
import type { KeyScope, RateLimitOverrides } from './workspace.store.ts';

export interface AuthContext {
  workspaceId: string;
  keyId: string;
  scope: KeyScope;
  /** The workspace's own rate limits, where an operator set them (decisions §4). */
  rateLimits?: RateLimitOverrides;
  /**
   * How many live keys the workspace had when this key was looked up: its requests of a minute
   * may reach the limit times this many (decisions §4, issue 41 finding 3). Absent for a content
   * link's token.
   */
  liveKeys?: number;
}

export function requireAuth(auth: AuthContext | null): AuthContext {
  if (!auth) throw new Error('route reached without authentication');
  return auth;
}
