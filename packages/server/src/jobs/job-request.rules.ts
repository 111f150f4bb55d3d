// Rules of decisions §5 that a JSON Schema does not express well, for the parts every job kind
// shares: fields a selector's strategy requires, timerange order, webhook URL and header rules.
// Every fault is reported at once, each with its JSON Pointer.
import type { ErrorDetail } from '../errors.ts';
import type { Member, WebhookTarget } from './job-request.schemas.ts';

const RESERVED_HEADERS = new Set(['host', 'content-type', 'content-length', 'transfer-encoding', 'connection', 'user-agent']);
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/**
 * The body's `idempotencyKey` and the `Idempotency-Key` header, when both are sent, must be equal
 * (docs/api.md): a rule of the request, so it is checked with the others, before its references.
 */
export function idempotencyKeyErrors(bodyKey: string | undefined, headerKey: string | undefined): ErrorDetail[] {
  if (bodyKey === undefined || headerKey === undefined || bodyKey === headerKey) return [];
  return [{ path: '/idempotencyKey', message: 'must equal the Idempotency-Key header when both are sent' }];
}

export function memberRuleErrors(member: Member, at: string): ErrorDetail[] {
  if (member.type !== 'media_target') return [];
  const s = member.selector;
  const errors: ErrorDetail[] = [];
  const need = (field: 'entity_id' | 'hint' | 'speaker_index' | 'timerange') => {
    if (s[field] === undefined || s[field] === null) {
      errors.push({ path: `${at}/selector/${field}`, message: `is required (not null) for strategy ${s.strategy}` });
    }
  };
  if (s.strategy === 'entity_id') need('entity_id');
  if (s.strategy === 'magic_hint') need('hint');
  if (s.strategy === 'speaker_index') need('speaker_index');
  if (s.strategy === 'timerange') {
    need('timerange');
    const t = s.timerange;
    if (t && typeof t.start_seconds === 'number' && typeof t.end_seconds === 'number' && !(t.start_seconds < t.end_seconds)) {
      errors.push({ path: `${at}/selector/timerange/end_seconds`, message: 'must be greater than start_seconds' });
    }
  }
  return errors;
}

export function webhookRuleErrors(webhook: WebhookTarget | undefined, at = '/webhook'): ErrorDetail[] {
  if (!webhook) return [];
  const errors: ErrorDetail[] = [];
  let url: URL | null = null;
  try {
    url = new URL(webhook.url);
  } catch {
    url = null;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || !url.hostname) {
    errors.push({ path: `${at}/url`, message: 'must be an absolute http or https URL' });
  }
  if ([...webhook.url].length > 2048) errors.push({ path: `${at}/url`, message: 'must be at most 2048 characters' });
  const headers = Object.entries(webhook.headers ?? {});
  if (headers.length > 20) errors.push({ path: `${at}/headers`, message: 'must hold at most 20 headers' });
  for (const [name, value] of headers) {
    const p = `${at}/headers/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    const lower = name.toLowerCase();
    if (!TOKEN.test(name)) errors.push({ path: p, message: 'header name must be an HTTP token' });
    else if (RESERVED_HEADERS.has(lower) || lower.startsWith('service-')) errors.push({ path: p, message: 'this header is set by the service and cannot be overridden' });
    if ([...value].length > 1024) errors.push({ path: p, message: 'header value must be at most 1024 characters' });
    if (/[\r\n]/.test(value)) errors.push({ path: p, message: 'header value must not contain CR or LF' });
  }
  return errors;
}
