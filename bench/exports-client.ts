// The client side of bench/exports.ts, in a process of its own (a client in the service's process
// would put its own reading of the answers on the event loop measured): `probe URL` asks
// /healthz every 20 ms until SIGTERM and prints each answer's time; `fetch BASE KEY PATH…`
// asks each path three times in turn and prints each one's time.
const [mode, ...args] = process.argv.slice(2);
if (mode === 'probe') {
  const [url] = args;
  const times: number[] = [];
  let stop = false;
  process.on('SIGTERM', () => (stop = true));
  while (!stop) {
    const started = performance.now();
    await (await fetch(url ?? '')).text();
    times.push(performance.now() - started);
    await new Promise((r) => setTimeout(r, 20));
  }
  console.log(JSON.stringify(times));
} else {
  const [base, key, ...paths] = args;
  const out: Record<string, number[]> = {};
  for (const path of paths) {
    out[path] = [];
    for (let i = 0; i < 3; i++) {
      const started = performance.now();
      const res = await fetch(`${base}${path}`, { headers: { 'service-api-key': key ?? '' } });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
      out[path].push(performance.now() - started);
    }
  }
  console.log(JSON.stringify(out));
}
