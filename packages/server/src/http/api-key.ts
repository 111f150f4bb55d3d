// Where a request's API key is read from (decisions §3): the `Service-Api-Key` header or, equally,
// `Authorization: Bearer <key>` (what most HTTP clients and tools send). Both present and
// different is refused (401): the service never guesses which one was meant.

export type ApiKeyHeader = { key: string } | { key: null; conflict: boolean };

const BEARER = /^Bearer[ \t]+([^\s]+)[ \t]*$/i;

export function apiKeyOf(headers: Record<string, string | string[] | undefined>): ApiKeyHeader {
  const direct = typeof headers['service-api-key'] === 'string' && headers['service-api-key'].length > 0 ? headers['service-api-key'] : null;
  const authorization = headers.authorization;
  const bearer = typeof authorization === 'string' ? (BEARER.exec(authorization)?.[1] ?? null) : null;
  if (direct !== null && bearer !== null && direct !== bearer) return { key: null, conflict: true };
  const key = direct ?? bearer;
  return key !== null && key.length < 512 ? { key } : { key: null, conflict: false };
}

export const KEY_CONFLICT_MESSAGE = 'The Service-Api-Key header and Authorization: Bearer name different keys; send one key.';
