// node:test's describe/it return promises that the runner itself awaits.
 
import assert from 'node:assert/strict';
import type dns from 'node:dns';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import {
  BlockedAddressError,
  classifyAddress,
  createGuardedAgent,
  createGuardedLookup,
  isBlockedAddressError,
  refuseLiteralHost,
} from './address-guard.ts';
import type { AddressRange, GuardedLookup } from './address-guard.ts';

const blocked: Array<[string, AddressRange]> = [
  ['127.0.0.1', 'loopback'],
  ['127.255.255.254', 'loopback'],
  ['::1', 'loopback'],
  ['::ffff:127.0.0.1', 'loopback'],
  ['::ffff:7f00:1', 'loopback'],
  ['[::ffff:127.0.0.1]', 'loopback'],
  ['10.0.0.1', 'private'],
  ['172.16.0.1', 'private'],
  ['172.31.255.255', 'private'],
  ['192.168.1.1', 'private'],
  ['::ffff:10.0.0.1', 'private'],
  ['fc00::1', 'private'],
  ['fd12:3456::1', 'private'],
  ['169.254.169.254', 'link_local'],
  ['::ffff:169.254.169.254', 'link_local'],
  ['fe80::1', 'link_local'],
  ['fe80::1%eth0', 'link_local'],
  ['100.64.0.1', 'cgnat'],
  ['100.127.255.255', 'cgnat'],
  ['224.0.0.1', 'multicast'],
  ['239.255.255.250', 'multicast'],
  ['ff02::1', 'multicast'],
  ['0.0.0.0', 'unspecified'],
  ['::', 'unspecified'],
  ['0.1.2.3', 'reserved'],
  ['255.255.255.255', 'broadcast'],
  ['240.0.0.1', 'reserved'],
  ['192.0.0.8', 'reserved'],
  ['192.0.2.10', 'documentation'],
  ['198.51.100.7', 'documentation'],
  ['203.0.113.9', 'documentation'],
  ['2001:db8::1', 'documentation'],
  ['198.18.0.1', 'benchmarking'],
  ['::127.0.0.1', 'reserved'],
  ['64:ff9b::a00:1', 'private'],
  ['2002:7f00:1::1', 'loopback'],
  ['2001::1', 'reserved'],
  ['fec0::1', 'private'],
  ['not-an-ip', 'invalid'],
];

const allowed = ['8.8.8.8', '1.1.1.1', '93.184.215.14', '100.63.255.255', '100.128.0.1', '172.32.0.1', '::ffff:8.8.8.8', '2606:4700:4700::1111', '2a00:1450:4001:80b::200e', '64:ff9b::808:808'];

describe('classifyAddress', () => {
  for (const [address, range] of blocked) {
    it(`blocks ${address} (${range})`, () => {
      const c = classifyAddress(address);
      assert.equal(c.range, range);
      assert.equal(c.blocked, true);
    });
  }
  for (const address of allowed) {
    it(`allows ${address}`, () => {
      const c = classifyAddress(address);
      assert.equal(c.range, 'public');
      assert.equal(c.blocked, false);
    });
  }
  it('names the IPv4 address that decided a mapped IPv6 address', () => {
    assert.equal(classifyAddress('::ffff:7f00:1').embeddedIPv4, '127.0.0.1');
  });
});

describe('refuseLiteralHost', () => {
  it('refuses blocked literals (with or without brackets) and leaves names to the resolver', () => {
    assert.ok(refuseLiteralHost('127.0.0.1', { allowPrivate: false }) instanceof BlockedAddressError);
    assert.ok(refuseLiteralHost('[::1]', { allowPrivate: false }) instanceof BlockedAddressError);
    assert.equal(refuseLiteralHost('8.8.8.8', { allowPrivate: false }), null);
    assert.equal(refuseLiteralHost('localhost', { allowPrivate: false }), null);
    assert.equal(refuseLiteralHost('127.0.0.1', { allowPrivate: true }), null);
  });
});

/** A fake resolver: answers `name` with the given addresses. */
function fakeDns(answers: Record<string, string[]>): typeof dns.lookup {
  return ((hostname: string, _options: unknown, callback: (err: Error | null, addresses: dns.LookupAddress[]) => void) => {
    const list = answers[hostname];
    if (!list) return callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), []);
    callback(null, list.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })));
  }) as unknown as typeof dns.lookup;
}

function call(lookup: GuardedLookup, hostname: string, all: boolean) {
  return new Promise<{ err: Error | null; address: unknown; family?: number }>((resolve) => {
    lookup(hostname, { all }, (err, address, family) => resolve({ err, address, family }));
  });
}

describe('createGuardedLookup', () => {
  const base = fakeDns({
    'rebind.test': ['127.0.0.1'],
    'metadata.test': ['169.254.169.254'],
    'mixed.test': ['10.0.0.1', '93.184.215.14', '::1', '2606:4700:4700::1111'],
    'public.test': ['93.184.215.14'],
  });
  const lookup = createGuardedLookup({ allowPrivate: false, lookup: base });

  it('refuses a name that resolves only to blocked addresses', async () => {
    for (const name of ['rebind.test', 'metadata.test']) {
      for (const all of [false, true]) {
        const { err } = await call(lookup, name, all);
        assert.ok(isBlockedAddressError(err), String(err));
        assert.match(err.message, new RegExp(`${name} resolves to`));
      }
    }
  });

  it('answers only with allowed addresses (all: false and all: true)', async () => {
    assert.deepEqual(await call(lookup, 'mixed.test', false), { err: null, address: '93.184.215.14', family: 4 });
    const { address } = await call(lookup, 'mixed.test', true);
    assert.deepEqual(address, [
      { address: '93.184.215.14', family: 4 },
      { address: '2606:4700:4700::1111', family: 6 },
    ]);
  });

  it('passes resolver errors through and lets everything through with allowPrivate', async () => {
    assert.equal(((await call(lookup, 'nxdomain.test', false)).err as NodeJS.ErrnoException).code, 'ENOTFOUND');
    const open = createGuardedLookup({ allowPrivate: true, lookup: base });
    assert.deepEqual(await call(open, 'rebind.test', true), { err: null, address: [{ address: '127.0.0.1', family: 4 }], family: undefined });
  });
});

describe('createGuardedAgent against a receiver on 127.0.0.1', () => {
  let server: http.Server;
  let port = 0;
  let connections = 0;
  before(async () => {
    server = http.createServer((_req, res) => res.end('ok'));
    server.on('connection', () => connections++);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  after(() => server.close());

  function get(host: string, agent: http.Agent): Promise<number> {
    return new Promise((resolve, reject) => {
      http.get({ host, port, agent, path: '/' }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      }).on('error', reject);
    });
  }

  it('refuses literal and resolved loopback hosts without connecting', async () => {
    const agent = createGuardedAgent('http:', { allowPrivate: false });
    const before = connections;
    for (const host of ['127.0.0.1', '::ffff:127.0.0.1', 'localhost']) {
      await assert.rejects(get(host, agent), (err: Error) => isBlockedAddressError(err), host);
    }
    assert.equal(connections, before);
    agent.destroy();
  });

  it('checks the connected address even when the name was resolved around the guard', async () => {
    const agent = createGuardedAgent('http:', { allowPrivate: false });
    // Simulate a resolver path that skipped the guarded lookup: the connect-time check still fires.
    const socket = agent.createConnection({ host: 'sneaky.test', port, lookup: fakeDns({ 'sneaky.test': ['127.0.0.1'] }) as never });
    const err = await new Promise<Error>((resolve) => socket?.on('error', resolve));
    assert.ok(isBlockedAddressError(err));
    agent.destroy();
  });

  it('connects when allowPrivate is set', async () => {
    const agent = createGuardedAgent('http:', { allowPrivate: true });
    assert.equal(await get('127.0.0.1', agent), 200);
    assert.equal(await get('localhost', agent), 200);
    agent.destroy();
  });
});
