// Does a voice with more voiced speech link reliably at a lower threshold? The identity folds'
// cache (eval/identity-folds.ts --cache, with voiced frames per speaker) linked file after file as
// the service links (most similar pairs first, one-to-one per file, entity voiceprint the mean of
// its appearances), with a threshold that depends on the voiced seconds of the new speaker and
// of the entity: T_hi below V0 seconds, T_lo at or above. Each fold's rule picked on the other two
// (the most true links with pairwise precision >= 0.95 on each), then scored on it.
//   node eval/identity-duration.ts --cache /work/idcache.json --voiceprint-models /work/vp [--speech]
// (--speech: the speaker's speech, speechSec, instead of its voiced frames.) Measured on
// 2026-12-07 and not adopted: docs/speech-validation.md, tenth session.
import { parseArgs } from 'node:util';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectVoiceStats, type VoiceprintModel } from '../packages/analysis/src/speech/trained-voiceprint.ts';
import { voiceprintSimilarity } from '../packages/analysis/src/speech/voiceprint.ts';
import { pairwiseIdentity, type Appearance } from './identity.ts';
import type { IdentityFile } from './identity-folds.ts';

const { values } = parseArgs({ options: { cache: { type: 'string' }, 'voiceprint-models': { type: 'string' }, speech: { type: 'boolean', default: false }, 'min-separation': { type: 'string', default: '0' } } });
// --min-separation X: the lower threshold only for a speaker whose separation (its clustered local
// speakers nearer its own voice than any other's) is at least X; a speaker with none measured never.
const minSeparation = Number(values['min-separation']);
const byFold = JSON.parse(readFileSync(values.cache!, 'utf8')) as Record<string, IdentityFile[]>;
const folds = Object.keys(byFold).sort();
const models = new Map(folds.map((k) => [k, JSON.parse(readFileSync(join(values['voiceprint-models']!, `${k}.json`), 'utf8')) as VoiceprintModel]));

interface Rule { hi: number; lo: number; v0: number; on: 'min' | 'new' }
const counts = (k: string, rule: Rule): { tp: number; fp: number; fn: number } => {
  const model = models.get(k)!;
  const entities: { id: string; vp: number[]; n: number; voicedSec: number }[] = [];
  const apps: Appearance[] = [];
  for (const f of byFold[k]!) {
    const toRef = new Map(f.toRef);
    const vps = f.stats!.map((v) => (v.length ? projectVoiceStats(model, v) : []));
    // --speech: the speaker's speech (speechSec, what the service knows of each speaker) instead of its voiced frames.
    const voiced = (values.speech ? f.speechSec! : f.voiced!.map((n) => n / 100)).map((v, s) => (minSeparation > 0 && !((f.separation?.[s] ?? -1) >= minSeparation) ? 0 : v));
    const pairs: { s: number; e: number; sim: number }[] = [];
    vps.forEach((v, s) => {
      if (!v.length) return;
      entities.forEach((x, e) => {
        const sim = voiceprintSimilarity(v, x.vp);
        const dur = rule.on === 'min' ? Math.min(voiced[s]!, x.voicedSec) : voiced[s]!;
        if (sim >= (dur >= rule.v0 ? rule.lo : rule.hi)) pairs.push({ s, e, sim });
      });
    });
    pairs.sort((a, b) => b.sim - a.sim);
    const linked: (number | null)[] = vps.map(() => null);
    const used = new Set<number>();
    for (const p of pairs) {
      if (linked[p.s] !== null || used.has(p.e)) continue;
      linked[p.s] = p.e;
      used.add(p.e);
    }
    const mapped = new Set<string>();
    vps.forEach((v, s) => {
      const ref = toRef.get(s);
      if (ref) mapped.add(ref);
      if (!v.length) {
        apps.push({ file: f.file.name, entity: `unlinked:${f.file.name}:${s}`, ref: ref ?? `spurious:${f.file.name}:${s}` });
        return;
      }
      let e = linked[s];
      if (e === null || e === undefined) {
        entities.push({ id: `E${entities.length}`, vp: [...v], n: 0, voicedSec: 0 });
        e = entities.length - 1;
      }
      const x = entities[e]!;
      x.vp = x.vp.map((a, d) => (a * x.n + v[d]!) / (x.n + 1));
      x.n++;
      x.voicedSec += voiced[s]!;
      apps.push({ file: f.file.name, entity: x.id, ref: ref ?? `spurious:${f.file.name}:${s}` });
    });
    for (const ref of f.file.speakers) if (!mapped.has(ref)) apps.push({ file: f.file.name, entity: `missed:${f.file.name}:${ref}`, ref });
  }
  const { tp, fp, fn } = pairwiseIdentity(apps);
  return { tp, fp, fn };
};

const rules: Rule[] = [];
for (const t of [0.92]) rules.push({ hi: t, lo: t, v0: 0, on: 'min' });
for (const on of ['min', 'new'] as const) for (const v0 of values.speech ? [10, 20, 30, 45, 60, 90, 120] : [5, 10, 15, 20, 30, 45, 60]) for (const lo of [0.7, 0.75, 0.8, 0.84, 0.86, 0.88, 0.9]) rules.push({ hi: 0.92, lo, v0, on });
const table = new Map(folds.map((k) => [k, rules.map((r) => counts(k, r))]));
const prec = (n: { tp: number; fp: number }): number => (n.tp + n.fp ? n.tp / (n.tp + n.fp) : 1);
const f1 = (n: { tp: number; fp: number; fn: number }): string => {
  const p = prec(n);
  const r = n.tp / (n.tp + n.fn || 1);
  return `${p.toFixed(2)} / ${r.toFixed(2)} / ${(p + r ? (2 * p * r) / (p + r) : 0).toFixed(2)}`;
};
const unit = values.speech ? 'of speech' : 'voiced';
const name = (r: Rule): string => (r.v0 === 0 ? `${r.hi} everywhere` : `${r.lo} from ${r.v0} s ${unit} (${r.on === 'min' ? 'both sides' : 'the new speaker'}), else ${r.hi}`);
console.log('| rule | ' + folds.join(' | ') + ' | pooled P / R / F1 |\n|---|---|---|---|---|');
rules.forEach((r, i) => {
  const cells = folds.map((k) => table.get(k)![i]!);
  const sum = cells.reduce((a, b) => ({ tp: a.tp + b.tp, fp: a.fp + b.fp, fn: a.fn + b.fn }));
  console.log(`| ${name(r)} | ${cells.map((c) => `${c.tp} / ${c.fp}`).join(' | ')} | ${f1(sum)} |`);
});
// Nested: on the other folds, the rule with the most right links at precision >= 0.95 on each.
let pooled = { tp: 0, fp: 0, fn: 0 };
for (const k of folds) {
  const others = folds.filter((o) => o !== k);
  let best = 0;
  rules.forEach((_, i) => {
    if (!others.every((o) => prec(table.get(o)![i]!) >= 0.95)) return;
    const tp = (j: number): number => others.reduce((a, o) => a + table.get(o)![j]!.tp, 0);
    if (tp(i) > tp(best)) best = i;
  });
  const n = table.get(k)![best]!;
  pooled = { tp: pooled.tp + n.tp, fp: pooled.fp + n.fp, fn: pooled.fn + n.fn };
  console.log(`nested ${k}: ${name(rules[best]!)}: ${n.tp} right ${n.fp} wrong, P / R / F1 ${f1(n)}`);
}
console.log(`nested pooled: P / R / F1 ${f1(pooled)}`);
