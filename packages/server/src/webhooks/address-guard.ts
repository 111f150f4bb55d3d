// SSRF guard for webhook deliveries (decisions §8): no delivery goes to an address that is not
// globally reachable unless the operator sets WEBHOOK_ALLOW_PRIVATE=true.
//
// The check is made on the address actually connected to, never on the host name alone: the
// guarded `lookup` below is what the socket uses to resolve the name, so the address it approves
// is the address dialled, and a DNS answer that changes between a check and the connect (DNS
// rebinding) cannot slip through. Literal IP hosts never reach `lookup` (net skips resolution for
// them), so the agent refuses those before creating a socket, and every new socket's
// `remoteAddress` is checked again on connect as a last line of defence.
//
// Blocked ranges. Those required by §8: loopback, private (RFC 1918, fc00::/7), link-local
// (169.254/16, fe80::/10), CGNAT (100.64/10), multicast, unspecified. Also blocked, because none
// of them is a legitimate public webhook receiver (IANA special-purpose registries):
//   IPv4: 0.0.0.0/8 "this network"; 192.0.0.0/24 IETF protocol assignments; 192.0.2.0/24,
//         198.51.100.0/24, 203.0.113.0/24 documentation; 192.88.99.0/24 deprecated 6to4 relay;
//         198.18.0.0/15 benchmarking; 240.0.0.0/4 reserved and 255.255.255.255 broadcast.
//   IPv6: everything outside 2000::/3 global unicast (covers ::/8 incl. IPv4-compatible
//         addresses, 100::/64 discard, 64:ff9b:1::/48 local NAT64, 5f00::/16 SRv6, fec0::/10
//         deprecated site-local); 2001::/23 IETF protocol assignments (Teredo, ORCHID,
//         benchmarking); 2001:db8::/32 and 3fff::/20 documentation.
// Addresses that embed an IPv4 address are judged by that IPv4 address: IPv4-mapped
// (::ffff:0:0/96), NAT64 (64:ff9b::/96) and 6to4 (2002::/16), since that is where the packets
// end up (::ffff:127.0.0.1 is loopback on a dual-stack socket).
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import type { LookupAddress, LookupOptions } from 'node:dns';
import type { Duplex } from 'node:stream';

export type AddressRange =
  | 'public'
  | 'loopback'
  | 'private'
  | 'link_local'
  | 'cgnat'
  | 'multicast'
  | 'unspecified'
  | 'broadcast'
  | 'documentation'
  | 'benchmarking'
  | 'reserved'
  | 'invalid';

export interface AddressClassification {
  /** The address as given, without brackets or zone id. */
  address: string;
  range: AddressRange;
  blocked: boolean;
  /** For IPv6 addresses that embed an IPv4 address: that address, which decided the range. */
  embeddedIPv4?: string;
}

type V4Rule = readonly [cidr: string, range: AddressRange];

// Order matters only for overlaps: 255.255.255.255 is named before 240/4 swallows it.
const V4_RULES: readonly V4Rule[] = [
  ['0.0.0.0/32', 'unspecified'],
  ['0.0.0.0/8', 'reserved'],
  ['10.0.0.0/8', 'private'],
  ['100.64.0.0/10', 'cgnat'],
  ['127.0.0.0/8', 'loopback'],
  ['169.254.0.0/16', 'link_local'],
  ['172.16.0.0/12', 'private'],
  ['192.0.0.0/24', 'reserved'],
  ['192.0.2.0/24', 'documentation'],
  ['192.88.99.0/24', 'reserved'],
  ['192.168.0.0/16', 'private'],
  ['198.18.0.0/15', 'benchmarking'],
  ['198.51.100.0/24', 'documentation'],
  ['203.0.113.0/24', 'documentation'],
  ['224.0.0.0/4', 'multicast'],
  ['255.255.255.255/32', 'broadcast'],
  ['240.0.0.0/4', 'reserved'],
];

const V6_RULES: readonly V4Rule[] = [
  ['::/128', 'unspecified'],
  ['::1/128', 'loopback'],
  ['fc00::/7', 'private'],
  ['fe80::/10', 'link_local'],
  ['fec0::/10', 'private'],
  ['ff00::/8', 'multicast'],
  ['2001:2::/48', 'benchmarking'],
  ['2001:db8::/32', 'documentation'],
  ['3fff::/20', 'documentation'],
  ['2001::/23', 'reserved'],
];

function parseV4(address: string): number | null {
  if (net.isIPv4(address) === false) return null;
  let value = 0;
  for (const octet of address.split('.')) value = value * 256 + Number(octet);
  return value;
}

function parseV6(address: string): bigint | null {
  if (net.isIPv6(address) === false) return null;
  let text = address;
  // A trailing dotted quad (::ffff:1.2.3.4) becomes two hex groups.
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted?.[1] !== undefined) {
    const v4 = parseV4(dotted[1]);
    if (v4 === null) return null;
    text = `${text.slice(0, dotted.index)}${(v4 >>> 16).toString(16)}:${(v4 & 0xffff).toString(16)}`;
  }
  const halves = text.split('::');
  const head = halves[0] ? halves[0].split(':') : [];
  const tail = halves.length > 1 && halves[1] ? halves[1].split(':') : [];
  const groups = halves.length > 1 ? [...head, ...Array<string>(8 - head.length - tail.length).fill('0'), ...tail] : head;
  let value = 0n;
  for (const group of groups) value = (value << 16n) | BigInt(parseInt(group, 16));
  return value;
}

function v4ToString(value: number): string {
  return [value >>> 24, (value >>> 16) & 255, (value >>> 8) & 255, value & 255].join('.');
}

const V4_TABLE = V4_RULES.map(([cidr, range]) => {
  const [base = '', bits = '0'] = cidr.split('/');
  const prefix = Number(bits);
  const mask = prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0;
  return { base: (parseV4(base) ?? 0) & mask, mask, range };
});

const V6_TABLE = V6_RULES.map(([cidr, range]) => {
  const [base = '', bits = '0'] = cidr.split('/');
  const shift = BigInt(128 - Number(bits));
  return { base: (parseV6(base) ?? 0n) >> shift, shift, range };
});

function rangeOfV4(value: number): AddressRange {
  for (const rule of V4_TABLE) if (((value & rule.mask) >>> 0) === rule.base >>> 0) return rule.range;
  return 'public';
}

function inV6Prefix(value: bigint, base: string, bits: number): boolean {
  const shift = BigInt(128 - bits);
  return value >> shift === (parseV6(base) ?? 0n) >> shift;
}

/** Strips URL brackets and an IPv6 zone id (`fe80::1%eth0`). */
export function normalizeAddress(address: string): string {
  let text = address.trim();
  if (text.startsWith('[') && text.endsWith(']')) text = text.slice(1, -1);
  const zone = text.indexOf('%');
  return zone >= 0 ? text.slice(0, zone) : text;
}

export function classifyAddress(input: string): AddressClassification {
  const address = normalizeAddress(input);
  const v4 = parseV4(address);
  if (v4 !== null) {
    const range = rangeOfV4(v4);
    return { address, range, blocked: range !== 'public' };
  }
  const v6 = parseV6(address);
  if (v6 === null) return { address, range: 'invalid', blocked: true };

  // Forms that carry an IPv4 address are judged by it (see the header comment).
  let embedded: number | null = null;
  if (inV6Prefix(v6, '::ffff:0:0', 96) || inV6Prefix(v6, '64:ff9b::', 96)) embedded = Number(v6 & 0xffffffffn);
  else if (inV6Prefix(v6, '2002::', 16)) embedded = Number((v6 >> 80n) & 0xffffffffn);
  if (embedded !== null) {
    const range = rangeOfV4(embedded);
    return { address, range, blocked: range !== 'public', embeddedIPv4: v4ToString(embedded) };
  }

  for (const rule of V6_TABLE) {
    if (v6 >> rule.shift === rule.base) return { address, range: rule.range, blocked: true };
  }
  // Only 2000::/3 is allocated as global unicast; everything else is reserved today.
  const range: AddressRange = inV6Prefix(v6, '2000::', 3) ? 'public' : 'reserved';
  return { address, range, blocked: range !== 'public' };
}

export function isBlockedAddress(address: string): boolean {
  return classifyAddress(address).blocked;
}

/** Raised (through lookup callbacks, agents and sockets) when a webhook target is refused. */
export class BlockedAddressError extends Error {
  readonly code = 'ERR_WEBHOOK_ADDRESS_BLOCKED';
  readonly address: string;
  readonly range: AddressRange;
  readonly hostname: string | undefined;

  constructor(classification: AddressClassification, hostname?: string) {
    const via = hostname && normalizeAddress(hostname) !== classification.address ? `${hostname} resolves to ` : '';
    const what = classification.range === 'invalid' ? 'not a valid IP address' : `a ${classification.range.replace('_', '-')} address`;
    super(`refused: ${via}${classification.address} is ${what}; webhooks only go to public addresses (WEBHOOK_ALLOW_PRIVATE=true allows it)`);
    this.name = 'BlockedAddressError';
    this.address = classification.address;
    this.range = classification.range;
    this.hostname = hostname;
  }
}

export function isBlockedAddressError(err: unknown): err is BlockedAddressError {
  return err instanceof Error && (err as { code?: unknown }).code === 'ERR_WEBHOOK_ADDRESS_BLOCKED';
}

export interface GuardOptions {
  /** WEBHOOK_ALLOW_PRIVATE: when true, nothing is refused. */
  allowPrivate: boolean;
}

/**
 * Refusal for a literal IP host (URL hostname, brackets allowed), or null when the host is a
 * name (names are checked at resolution time) or the address is allowed.
 */
export function refuseLiteralHost(hostname: string, opts: GuardOptions): BlockedAddressError | null {
  if (opts.allowPrivate) return null;
  const address = normalizeAddress(hostname);
  if (net.isIP(address) === 0) return null;
  const classification = classifyAddress(address);
  return classification.blocked ? new BlockedAddressError(classification, hostname) : null;
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;
export type GuardedLookup = (hostname: string, options: LookupOptions, callback: LookupCallback) => void;

/**
 * A `dns.lookup`-compatible function (for `net.connect({ lookup })`, http(s) request and agent
 * options) that answers only with allowed addresses. Blocked answers are dropped; when nothing is
 * left the callback gets a BlockedAddressError naming the first refused address. Handles both
 * `all: false` (address, family) and `all: true` (list) calls, as net's happy-eyeballs uses both.
 */
export function createGuardedLookup(opts: GuardOptions & { lookup?: typeof dns.lookup }): GuardedLookup {
  const base = opts.lookup ?? dns.lookup;
  return function guardedLookup(hostname, options, callback) {
    // dns.lookup also accepts (hostname, callback) and (hostname, family, callback).
    const cb = (typeof options === 'function' ? options : callback) as LookupCallback;
    const lookupOptions: LookupOptions =
      typeof options === 'object' && options !== null ? options : typeof options === 'number' ? { family: options } : {};
    if (opts.allowPrivate) {
      base(hostname, lookupOptions as LookupOptions & { all?: boolean }, cb as never);
      return;
    }
    base(hostname, { ...lookupOptions, all: true }, (err, addresses) => {
      if (err) return cb(err, lookupOptions.all ? [] : '');
      const allowed: LookupAddress[] = [];
      let firstRefused: AddressClassification | null = null;
      for (const entry of addresses) {
        const classification = classifyAddress(entry.address);
        if (!classification.blocked) allowed.push(entry);
        else firstRefused ??= classification;
      }
      const first = allowed[0];
      if (first === undefined) {
        const refusal = firstRefused ?? { address: hostname, range: 'invalid' as const, blocked: true };
        return cb(new BlockedAddressError(refusal, hostname), lookupOptions.all ? [] : '');
      }
      if (lookupOptions.all) cb(null, allowed);
      else cb(null, first.address, first.family);
    });
  };
}

type ConnectionCallback = (err: Error | null, stream: Duplex) => void;

/**
 * An http or https Agent whose every connection goes through the guard: literal IP hosts are
 * refused before a socket exists, names resolve through `createGuardedLookup`, and each new
 * socket's remote address is checked once connected. `agentOptions` pass through (keepAlive,
 * maxSockets, TLS options...); `lookup` in them is used as the underlying resolver.
 */
export function createGuardedAgent(
  protocol: 'http:' | 'https:',
  opts: GuardOptions & { agentOptions?: https.AgentOptions },
): http.Agent {
  const agentOptions = opts.agentOptions ?? {};
  const lookup = createGuardedLookup({
    allowPrivate: opts.allowPrivate,
    ...(agentOptions.lookup ? { lookup: agentOptions.lookup as typeof dns.lookup } : {}),
  });
  const agent = protocol === 'https:' ? new https.Agent({ ...agentOptions, lookup }) : new http.Agent({ ...agentOptions, lookup });
  if (opts.allowPrivate) return agent;

  const create = agent.createConnection.bind(agent);
  agent.createConnection = (options, callback) => {
    const host = typeof options.host === 'string' ? options.host : (options.hostname ?? '');
    const refusal = refuseLiteralHost(host, opts);
    if (refusal) {
      // Returning nothing and failing through the callback makes the agent report the error on
      // the request without ever creating a socket.
      process.nextTick(() => (callback as ConnectionCallback | undefined)?.(refusal, undefined as never));
      return undefined;
    }
    const socket = create(options, callback);
    socket?.once('connect', () => {
      const remote = (socket as net.Socket).remoteAddress;
      const classification = remote ? classifyAddress(remote) : null;
      if (classification?.blocked) socket.destroy(new BlockedAddressError(classification, host));
    });
    return socket;
  };
  return agent;
}
