// Decisions §20, checked on many generated analyses: build documents (evidence + Markdown) and
// hold every sentence that quotes a figure or makes a claim to the evidence it cites. Seeded, so a
// failure names a case that can be rebuilt.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { conversation, makeMedia } from '../behavior/fixtures.testkit.ts';
import { aggregateMetrics } from '../behavior/speaker-metrics.ts';
import { seededRandom } from '../behavior/stats.ts';
import type { AnalysisWarning, MediaAnalysis, SpeakerMetrics } from '../types.ts';
import { DOCUMENT_CONSTANTS } from './evidence.ts';
import { percent, score } from './format.ts';
import { buildMatching } from './matching.ts';
import { featureMeans } from './pair-blocks.ts';
import type { BuiltDocument } from './matching.ts';
import type { CardBlock, MemberInput, PairEvidence } from './types.ts';

const NAMES: { name: string; shortName?: string }[] = [
  { name: 'Ada' },
  { name: 'James' },
  { name: 'Chris' },
  { name: 'Speaker 1 in x.wav and 3 other recordings', shortName: 'Speaker 1' },
  { name: 'Speaker 2 in interview.wav', shortName: 'Speaker 2' },
  { name: 'Thomas' },
];

const UNCERTAIN: AnalysisWarning = { code: 'speaker_count_uncertain', found: 2, maybe: 'either', reason: 'from the voices alone' };

/** Some of a profile's measures left unmeasured, as short or odd speech leaves them. */
function thinned(m: SpeakerMetrics, random: () => number): SpeakerMetrics {
  const out = { ...m };
  for (const key of ['medianPauseSec', 'medianGapBeforeTurnSec', 'speakingRateSylPerSec', 'pitchVariabilitySt', 'loudnessVariabilityDb', 'pausesPerMin', 'medianTurnSec'] as const) {
    if (random() < 0.3) out[key] = null;
  }
  return out;
}

function generate(seed: number): { built: BuiltDocument; names: string[] } {
  const random = seededRandom(seed);
  const pick = <T,>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
  const recordings: Record<string, MediaAnalysis> = {};
  for (let k = 0; k < 3; k++) {
    const m = makeMedia({ ...conversation(seed * 7 + k, 10 + Math.floor(random() * 60), random() < 0.5), overlapMeasured: random() < 0.5 });
    const warnings = random() < 0.4 ? [UNCERTAIN] : [];
    recordings[`med_${k}`] = {
      ...m,
      ...(warnings.length ? { warnings } : {}),
      // Separation recorded, or not (an older analysis).
      speakers: m.speakers.map((s) => (random() < 0.8 ? { ...s, separation: 0.4 + random() * 0.6 } : s)),
    };
  }
  const used = new Set<string>();
  const member = (ref: string): MemberInput => {
    let n = pick(NAMES);
    while (used.has(n.name)) n = pick(NAMES);
    used.add(n.name);
    const mediaId = `med_${Math.floor(random() * 3)}`;
    const speakerIndex = random() < 0.5 ? 0 : 1;
    const metrics = aggregateMetrics([{ metrics: recordings[mediaId]!.speakers[speakerIndex]!.metrics }]);
    return { ref, ...n, entityId: null, metrics: random() < 0.5 ? thinned(metrics, random) : metrics, appearances: [{ mediaId, speakerIndex }] };
  };
  const target = member('target');
  const group = Array.from({ length: 1 + Math.floor(random() * 3) }, (_, k) => member(`group[${k}]`));
  const built = buildMatching({ target, group, media: recordings });
  return { built, names: [target, ...group].flatMap((m) => [m.name, m.shortName ?? m.name]) };
}

function cardsOf(built: BuiltDocument, title: string): CardBlock[] {
  const section = built.document.sections.find((s) => s.section_title === title);
  const c = section?.section_content;
  const blocks = Array.isArray(c) ? c : [];
  return blocks.flatMap((b) => (b.type === 'grid' ? b.items : b.type === 'card' ? [b] : []));
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

test('every sentence of generated documents agrees with the evidence it cites (decisions §20)', () => {
  let adviceChecked = 0;
  let lowTrustChecked = 0;
  let singleChecked = 0;
  for (let seed = 1; seed <= 150; seed++) {
    const { built, names } = generate(seed);
    const e = built.evidence;
    const text = built.markdown;
    const where = `seed ${seed}`;

    // Grammar with every name form: never a possessive glued to a name, never "recordings's".
    assert.doesNotMatch(text, /recordings's/, where);
    for (const n of names) assert.ok(!text.includes(`${n}'s`) && !text.includes(`${n}’s`), `${where}: "${n}'s"`);

    // The headline: strongest and weakest are dimensions of several measured figures, quoted as measured.
    const head = /Strongest dimension: (.+?) \((\d+)\); weakest: (.+?) \((\d+)\)\./.exec(built.document.summary);
    for (const d of e.dimensions.filter((x) => x.singleFigure)) {
      singleChecked++;
      assert.ok(!head || (head[1] !== d.name.toLowerCase() && head[3] !== d.name.toLowerCase()), `${where}: ${d.name} rests on one figure and is headlined`);
    }
    if (head) {
      for (const [name, value] of [[head[1], head[2]], [head[3], head[4]]] as const) {
        const d = e.dimensions.find((x) => x.name.toLowerCase() === name);
        assert.ok(d && !d.singleFigure && score(d.score) === value, `${where}: headline ${name} ${value}`);
      }
    }

    for (const [k, p] of e.pairs.entries()) {
      const pairTitle = built.document.sections[2 + k]?.section_title ?? '';
      const cards = cardsOf(built, pairTitle);
      assert.equal(cards.length, p.components.length, `${where}: one card per component`);
      for (const [i, c] of p.components.entries()) {
        const card = cards[i]!;
        // The card's score and confidence are the evidence's, as formatted.
        if (c.score !== null) {
          assert.ok(card.title.endsWith(`: ${score(c.score)}`), `${where}: ${card.title}`);
          assert.ok(card.content.includes(`Confidence ${percent(c.confidence)}.`), `${where}: ${c.key} confidence`);
        }
        const single = c.score !== null && c.figures.possible > 1 && c.figures.measured === 1;
        assert.equal(card.content.includes('Rests on one measured figure'), single, `${where}: ${c.key} single-figure note`);
        // Confidence cannot exceed how sure the analysis is of the speakers.
        assert.ok(c.confidence <= p.trust + 1e-12, `${where}: ${c.key} confidence above trust`);
      }
      assert.ok(p.overall.confidence <= p.trust + 1e-12, `${where}: overall above trust`);
      if (p.trust < DOCUMENT_CONSTANTS.lowTrust) {
        lowTrustChecked++;
        for (const m of JSON.stringify(cards).matchAll(/Confidence (\d+)%/g)) assert.ok(Number(m[1]) < 80, `${where}: ${m[0]} at trust ${p.trust}`);
        assert.match(text, new RegExp(`speaker trust ${escape(percent(p.trust))}`), `${where}: low trust is said`);
      }
    }
    for (const m of [e.target, ...e.group]) assert.ok(m.profileConfidence <= m.profileTrust + 1e-12, `${where}: profile confidence above trust`);

    // Growth advice quotes the figures it is drawn from and claims only what they show.
    for (const card of cardsOf(built, 'Growth opportunities')) {
      const entrainment = /^Entrainment with (.+) is (\d+) \(unrelated speakers average \d+\): (.+?)\. Matching/.exec(card.content);
      if (entrainment) {
        adviceChecked++;
        const claims = entrainment[3]!;
        const fits = (p: PairEvidence) => {
          const c = p.components.find((x) => x.key === 'entrainment');
          if (!c || c.score === null || score(c.score) !== entrainment[2]) return false;
          const means = featureMeans(c);
          const low = /^(.+?) adapted little/.exec(claims)?.[1] ?? '';
          return means.every((f) => {
            const quoted = new RegExp(`\\b${f.word} \\((\\d+)\\)`).exec(claims);
            const inLow = new RegExp(`\\b${f.word} \\(`).test(low);
            if (f.mean === null) return !quoted && new RegExp(`\\b${f.word}\\b[^;]*not measured`).test(claims);
            if (!quoted || quoted[1] !== score(f.mean)) return false;
            return inLow === f.mean < DOCUMENT_CONSTANTS.growthThreshold;
          });
        };
        assert.ok(e.pairs.some(fits), `${where}: "${card.content}" against the entrainment cells`);
      }
      const held = /^Floor balance with .+ is (\d+): .+ held (\d+%) of their shared talk/.exec(card.content);
      if (held) {
        adviceChecked++;
        assert.ok(e.pairs.some((p) => {
          const c = p.components.find((x) => x.key === 'floorBalance');
          return c?.score != null && score(c.score) === held[1] && percent(c.inputs.targetShareOfPair ?? -1) === held[2];
        }), `${where}: ${card.content}`);
      }
      const answered = /^Responsiveness with .+ is (\d+): .+ took the floor after a median ([\d.]+) s/.exec(card.content);
      if (answered) {
        adviceChecked++;
        assert.ok(e.pairs.some((p) => {
          const c = p.components.find((x) => x.key === 'responsiveness');
          const gap = c?.inputs.medianGapTargetSec ?? null;
          return c?.score != null && score(c.score) === answered[1] && gap !== null && gap.toFixed(2) === answered[2];
        }), `${where}: ${card.content}`);
      }
    }
  }
  // The generator reaches the cases the checks are about.
  assert.ok(adviceChecked > 10, `advice cards checked: ${adviceChecked}`);
  assert.ok(lowTrustChecked > 5, `low-trust pairs checked: ${lowTrustChecked}`);
  assert.ok(singleChecked > 0, `single-figure dimensions checked: ${singleChecked}`);
});
