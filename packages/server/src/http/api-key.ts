// Where a request's API key is read from (decisions §3): the `Service-Api-Key` header or, equally,
// `Authorization: Bearer <key>` (what most HTTP clients and tools send). Both present and
// different is refused (401): the service never guesses which one was meant.
// A content link's token is no key: it reads its one media's content URL and nothing else
// (files/content-links.store.ts). Presented anywhere else it is refused with a message saying so,
// not the generic one, since the credential is real but in the wrong place.
import { CONTENT_LINK_PREFIX } from '../files/content-links.store.ts';

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

const LINK_ONLY_THERE = "it is valid only on the content URL of its own media, GET /v1/files/{id}/content?token=…; every other route needs an API key in the Service-Api-Key header (or Authorization: Bearer).";

/** The 401 message of a `?token=` on a route other than a media's content. */
export const CONTENT_LINK_ELSEWHERE_MESSAGE = `A ?token= is a content link, not an API key: ${LINK_ONLY_THERE}`;

/** The 401 message of a content link's token sent as the key (header), on any route. */
export const CONTENT_LINK_AS_KEY_MESSAGE = `This is a content link's token, not an API key: sent as ?token=, ${LINK_ONLY_THERE}`;

/** Whether a key that authenticated nothing has the form of a content link's token. */
export function isContentLinkToken(key: string): boolean {
  return key.startsWith(CONTENT_LINK_PREFIX);
}
