// Diarization error rate, written for this project (NIST md-eval's definition): over the scored
// time, missed = max(0, Nref - Nhyp), false alarm = max(0, Nhyp - Nref), confusion =
// min(Nref, Nhyp) - Ncorrect, each weighted by duration, divided by the scored reference speech
// (overlap counts once per speaker). Speakers are mapped one-to-one to maximise the time where
// both talk (exact search over assignments). The collar removes +-C s around each reference
// boundary from scoring.

export interface Seg {
  speaker: string;
  start: number;
  end: number;
}

export interface DerResult {
  der: number | null;
  missed: number; // seconds
  falseAlarm: number;
  confusion: number;
  scored: number; // scored reference speech, seconds (per speaker)
  mapping: Map<string, string>; // hyp -> ref
}

interface Piece {
  start: number;
  end: number;
  ref: string[];
  hyp: string[];
}

/** Elementary intervals over which the sets of active speakers are constant. */
function pieces(ref: Seg[], hyp: Seg[], collar: number): Piece[] {
  const cuts = new Set<number>();
  for (const s of [...ref, ...hyp]) {
    cuts.add(s.start);
    cuts.add(s.end);
  }
  const noScore: [number, number][] = [];
  if (collar > 0)
    for (const s of ref) {
      noScore.push([s.start - collar, s.start + collar], [s.end - collar, s.end + collar]);
      for (const x of [s.start - collar, s.start + collar, s.end - collar, s.end + collar]) cuts.add(x);
    }
  const times = [...cuts].sort((a, b) => a - b);
  const out: Piece[] = [];
  for (let i = 0; i + 1 < times.length; i++) {
    const a = times[i]!;
    const b = times[i + 1]!;
    if (b - a < 1e-9) continue;
    const mid = (a + b) / 2;
    if (noScore.some(([x, y]) => mid > x && mid < y)) continue;
    const active = (segs: Seg[]): string[] => [...new Set(segs.filter((s) => s.start <= mid && s.end > mid).map((s) => s.speaker))];
    out.push({ start: a, end: b, ref: active(ref), hyp: active(hyp) });
  }
  return out;
}

/** Best one-to-one mapping hyp -> ref maximising co-occurrence (DP over subsets of ref speakers). */
function bestMapping(overlap: Map<string, Map<string, number>>, hypIds: string[], refIds: string[]): Map<string, string> {
  const R = refIds.length;
  // value[h][mask]: best total using hyp speakers h.. with ref speakers in mask used.
  const memo = new Map<string, { v: number; pick: number }>();
  const solve = (h: number, mask: number): number => {
    if (h === hypIds.length) return 0;
    const key = `${h}:${mask}`;
    const hit = memo.get(key);
    if (hit) return hit.v;
    let best = solve(h + 1, mask);
    let pick = -1;
    for (let r = 0; r < R; r++) {
      if (mask & (1 << r)) continue;
      const v = (overlap.get(hypIds[h]!)?.get(refIds[r]!) ?? 0) + solve(h + 1, mask | (1 << r));
      if (v > best) {
        best = v;
        pick = r;
      }
    }
    memo.set(key, { v: best, pick });
    return best;
  };
  solve(0, 0);
  const mapping = new Map<string, string>();
  let mask = 0;
  for (let h = 0; h < hypIds.length; h++) {
    const pick = memo.get(`${h}:${mask}`)?.pick ?? -1;
    if (pick >= 0) {
      mapping.set(hypIds[h]!, refIds[pick]!);
      mask |= 1 << pick;
    }
  }
  return mapping;
}

export function scoreDiarization(ref: Seg[], hyp: Seg[], collar = 0.25): DerResult {
  const ps = pieces(ref, hyp, collar);
  const refIds = [...new Set(ref.map((s) => s.speaker))];
  const hypIds = [...new Set(hyp.map((s) => s.speaker))];
  const overlap = new Map<string, Map<string, number>>();
  for (const p of ps)
    for (const h of p.hyp)
      for (const r of p.ref) {
        const m = overlap.get(h) ?? new Map<string, number>();
        m.set(r, (m.get(r) ?? 0) + p.end - p.start);
        overlap.set(h, m);
      }
  const mapping = bestMapping(overlap, hypIds, refIds);
  let missed = 0;
  let falseAlarm = 0;
  let confusion = 0;
  let scored = 0;
  for (const p of ps) {
    const d = p.end - p.start;
    const nr = p.ref.length;
    const nh = p.hyp.length;
    const correct = p.hyp.filter((h) => {
      const r = mapping.get(h);
      return r !== undefined && p.ref.includes(r);
    }).length;
    scored += nr * d;
    missed += Math.max(0, nr - nh) * d;
    falseAlarm += Math.max(0, nh - nr) * d;
    confusion += (Math.min(nr, nh) - correct) * d;
  }
  return { der: scored > 0 ? (missed + falseAlarm + confusion) / scored : null, missed, falseAlarm, confusion, scored, mapping };
}
