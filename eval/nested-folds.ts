// Settings chosen on other voices: nested leave-voices-out tuning of the diarization's settings.
// A grid is swept on every fold (eval/sweep.ts, each fold with the embedding trained without its
// voices); then, for each fold, the setting with the lowest pooled DER on the *other* folds'
// conversations is chosen and scored on this fold, whose voices neither the model nor the choice
// saw. The mean over folds of those held-out figures is what the tuning is worth on unheard voices;
// the best row of the plain grid is not (it is chosen on the voices it is scored on).
//   node eval/nested-folds.ts --val /work/val --models /work/spk-lda --grid '{"count.clrThreshold":[-1,-0.6,-0.2]}' [--out DIR] [--reuse]
// The grid should hold the shipped values, so that their row is the baseline. --reuse reads the
// sweeps already in DIR instead of running them again.
import { parseArgs } from 'node:util';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DIARIZATION_SETTINGS } from '../packages/analysis/src/speech/diarization/settings.ts';
import { emptyScore, formatScore, type SweepScore } from './sweep.ts';

interface SettingRun {
  settings: Record<string, Record<string, unknown>>;
  files: { name: string; score: SweepScore }[];
}

function add(a: SweepScore, b: SweepScore): SweepScore {
  const out = { ...a };
  for (const k of Object.keys(b) as (keyof SweepScore)[]) out[k] += b[k];
  return out;
}

const total = (run: SettingRun): SweepScore => run.files.reduce((acc, f) => add(acc, f.score), emptyScore());
const der = (s: SweepScore): number => s.derNum / Math.max(1e-9, s.derDen);

/** Whether every value of `settings` is the shipped one. */
function isShipped(settings: SettingRun['settings']): boolean {
  const shipped = DIARIZATION_SETTINGS as unknown as Record<string, Record<string, unknown>>;
  return Object.entries(settings).every(([stage, kv]) => Object.entries(kv).every(([k, v]) => shipped[stage]?.[k] === v));
}

/** For each fold, the setting best on the other folds, scored on this one. */
export function nestedChoice(byFold: Map<string, SettingRun[]>): { fold: string; chosen: number; held: SweepScore }[] {
  const folds = [...byFold.keys()];
  return folds.map((fold) => {
    const n = byFold.get(fold)!.length;
    let chosen = 0;
    let best = Infinity;
    for (let s = 0; s < n; s++) {
      const others = folds.filter((o) => o !== fold).reduce((acc, o) => add(acc, total(byFold.get(o)![s]!)), emptyScore());
      if (der(others) < best - 1e-12) [best, chosen] = [der(others), s];
    }
    return { fold, chosen, held: total(byFold.get(fold)![chosen]!) };
  });
}

async function sweep(val: string, models: string, fold: string, grid: string, out: string): Promise<void> {
  const k = fold.slice(5);
  const args = ['eval/sweep.ts', '--dataset', join(val, fold), '--model', join(models, `fold-${k}.json`), '--grid', grid, '--json', out];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'inherit', 'inherit'] });
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  if (code !== 0) throw new Error(`sweep of ${fold} failed`);
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { val: { type: 'string' }, models: { type: 'string' }, grid: { type: 'string' }, out: { type: 'string' }, reuse: { type: 'boolean' } } });
  if (!values.val || !values.models || !values.grid) {
    console.error('usage: node eval/nested-folds.ts --val DIR --models DIR --grid JSON [--out DIR] [--reuse]');
    process.exit(2);
  }
  const out = values.out ?? join(values.models, 'nested');
  mkdirSync(out, { recursive: true });
  const folds = readdirSync(values.val).filter((d) => /^fold-\d+$/.test(d)).sort();
  const path = (fold: string): string => join(out, `${fold}.json`);
  if (!values.reuse || !folds.every((f) => existsSync(path(f)))) {
    await Promise.all(folds.map((fold) => sweep(values.val!, values.models!, fold, values.grid!, path(fold))));
  }
  const byFold = new Map(folds.map((fold) => [fold, JSON.parse(readFileSync(path(fold), 'utf8')) as SettingRun[]]));
  const settings = byFold.get(folds[0]!)!.map((r) => r.settings);
  console.log('| setting | ' + folds.join(' | ') + ' | all |');
  console.log('|---|' + folds.map(() => '---|').join('') + '---|');
  settings.forEach((st, s) => {
    const per = folds.map((f) => total(byFold.get(f)![s]!));
    const all = per.reduce(add, emptyScore());
    console.log(`| ${JSON.stringify(st)}${isShipped(st) ? ' (shipped)' : ''} | ${per.map((p) => (100 * der(p)).toFixed(1)).join(' | ')} | ${formatScore(all)} |`);
  });
  const nested = nestedChoice(byFold);
  console.log('\nChosen on the other folds, scored on the fold:');
  for (const n of nested) console.log(`- ${n.fold}: ${JSON.stringify(settings[n.chosen])} -> ${formatScore(n.held)}`);
  const meanDer = nested.reduce((a, n) => a + der(n.held), 0) / nested.length;
  const shippedIdx = settings.findIndex(isShipped);
  const shippedMean = shippedIdx < 0 ? null : folds.reduce((a, f) => a + der(total(byFold.get(f)![shippedIdx]!)), 0) / folds.length;
  console.log(`\nmean fold DER: nested ${(100 * meanDer).toFixed(2)} %${shippedMean === null ? '' : `, shipped ${(100 * shippedMean).toFixed(2)} %`}`);
}

if (import.meta.main) await main();
