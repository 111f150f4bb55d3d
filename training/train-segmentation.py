#!/usr/bin/env python3
"""Trains the engine's speaker segmentation network on simulated conversations.

    /usr/bin/python3 training/train-segmentation.py --data /work/seg-export --out /work/seg-net/fold-0 \
        [--exclude-fold 0] [--steps 12000] [--batch 32] [--threads 1]

The data is training/export-segmentation.ts's output (OUT/shard-*/: the engine's 40-band fbank of
every 10 ms frame and, per frame, a bit per voice of the conversation). Each step draws 8 s crops
(800 frames) of random conversations; the network gives every 40 ms output frame one class of
the powerset of up to three local speakers with at most two at once (none, 1, 2, 3, 1+2, 1+3,
2+3; Plaquet & Bredin 2023), and the loss is the cross entropy under the best of the 6
permutations of the local speakers (permutation-invariant training). Frames where a fourth voice or
three voices at once speak are left out of the loss.

Network: the window's mean frame removed (CMN, inside the graph), three 1-D convolutions (the last
two with stride 2: 10 ms in, 40 ms out), four dilated residual convolutions (a context of 2.5 s),
two self-attention layers over the whole window (where every frame is compared with every other:
which voice is which) and a linear layer: about 330 k weights, a few milliseconds a window on one
CPU core. Debian's python3-torch calls the system BLAS: with the reference BLAS a step takes ten
times longer than with OpenBLAS (libopenblas0-openmp), which train-segmentation.sh installs.

With --exclude-fold K the conversations of fold K's voices are left out of training and a fixed
set of their crops measures the network on voices it never heard (within-window DER, speech,
overlap and speaker-change detection): OUT.record.json holds those figures with the run's
settings, data and timings. It checkpoints every 500 steps (OUT.ckpt) and resumes from there.
Writes OUT.onnx (log-probabilities [batch, frames, 7] from fbank [batch, frames, 40]) and
OUT.json, its description for the engine (docs/analysis-speech.md, "Diarization").
Needs Debian's python3-torch and python3-numpy; CPU only.
"""
import argparse
import glob
import hashlib
import itertools
import json
import math
import os
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

BINS = 40
WINDOW = 800  # 10 ms frames: 8 s
STRIDE = 4  # output frame: 40 ms
OUT_FRAMES = WINDOW // STRIDE
FBANK_SCALE = 256.0
# Powerset classes of three local speakers, at most two at once: bitmask of speakers -> class.
CLASS_OF_SET = {0: 0, 1: 1, 2: 2, 4: 3, 3: 4, 5: 5, 6: 6}
PERMS = list(itertools.permutations(range(3)))


class SelfAttention(nn.Module):
    """A pre-norm transformer layer written with matmuls (it exports to plain ONNX ops)."""

    def __init__(self, d, heads, ff):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(d, 3 * d)
        self.proj = nn.Linear(d, d)
        self.norm1 = nn.LayerNorm(d)
        self.norm2 = nn.LayerNorm(d)
        self.ff1 = nn.Linear(d, ff)
        self.ff2 = nn.Linear(ff, d)

    def forward(self, x):
        b, t, d = x.shape
        q, k, v = self.qkv(self.norm1(x)).reshape(b, t, 3, self.heads, d // self.heads).permute(2, 0, 3, 1, 4)
        a = torch.softmax(q @ k.transpose(-1, -2) / math.sqrt(d // self.heads), -1)
        x = x + self.proj((a @ v).transpose(1, 2).reshape(b, t, d))
        return x + self.ff2(F.relu(self.ff1(self.norm2(x))))


class Segmenter(nn.Module):
    def __init__(self, channels=96, layers=2):
        super().__init__()
        self.conv1 = nn.Conv1d(BINS, 64, 5, padding=2)
        self.conv2 = nn.Conv1d(64, channels, 5, stride=2, padding=2)
        self.conv3 = nn.Conv1d(channels, channels, 3, stride=2, padding=1)
        self.tcn = nn.ModuleList([nn.Conv1d(channels, channels, 3, padding=d, dilation=d) for d in (1, 2, 4, 8)])
        self.attention = nn.ModuleList([SelfAttention(channels, 4, 2 * channels) for _ in range(layers)])
        self.norm = nn.LayerNorm(channels)
        self.out = nn.Linear(channels, len(CLASS_OF_SET))

    def forward(self, fbank):  # [B, T, BINS], natural-log energies
        x = fbank - fbank.mean(dim=1, keepdim=True)
        x = (x / 4.0).transpose(1, 2)
        x = F.relu(self.conv1(x))
        x = F.relu(self.conv2(x))
        x = F.relu(self.conv3(x))
        for conv in self.tcn:
            x = x + F.relu(conv(x))
        x = x.transpose(1, 2)
        for layer in self.attention:
            x = layer(x)
        return F.log_softmax(self.out(self.norm(x)), dim=-1)


def load(data):
    shards = []
    for d in sorted(glob.glob(os.path.join(data, 'shard-*'))):
        meta = json.load(open(os.path.join(d, 'meta.json')))
        fb = np.memmap(os.path.join(d, 'fbank.i16'), dtype=np.int16, mode='r').reshape(-1, BINS)
        act = np.memmap(os.path.join(d, 'active.u8'), dtype=np.uint8, mode='r')
        assert fb.shape[0] == meta['frames'] == act.shape[0], d
        assert meta['fbank']['bins'] == BINS
        for c in meta['conversations']:
            if c['frames'] >= WINDOW:
                shards.append((fb, act, c))
    return shards


def export_recipe(data):
    """The export's seed, overlap and level styles (export-segmentation.ts), from its first shard."""
    first = sorted(glob.glob(os.path.join(data, 'shard-*')))[0]
    meta = json.load(open(os.path.join(first, 'meta.json')))
    return {'seed': meta.get('seed'), 'overlap': meta.get('overlap', 'default'), 'levels': meta.get('levels', 'default')}


def crop(item, start):
    fb, act, c = item
    a = c['offset'] + start
    x = fb[a:a + WINDOW].astype(np.float32) / FBANK_SCALE
    bits = act[a:a + WINDOW].astype(np.int64)
    nvoices = len(c['voices'])
    frames = [((bits >> v) & 1) for v in range(nvoices)]
    counts = [int(f.sum()) for f in frames]
    # Up to three local speakers: the voices that speak most in the crop.
    order = sorted(range(nvoices), key=lambda v: -counts[v])
    local = [v for v in order if counts[v] > 0][:3]
    dropped = [v for v in order if counts[v] > 0][3:]
    # Output frame t: a speaker is active when it speaks in at least 2 of its 4 input frames.
    spk = np.zeros((OUT_FRAMES, 3), dtype=np.int64)
    for j, v in enumerate(local):
        spk[:, j] = frames[v].reshape(OUT_FRAMES, STRIDE).sum(1) >= 2
    valid = np.ones(OUT_FRAMES, dtype=bool)
    for v in dropped:
        valid &= frames[v].reshape(OUT_FRAMES, STRIDE).sum(1) < 2
    valid &= spk.sum(1) <= 2
    return x, spk, valid


def targets(spk):
    """Per permutation, the powerset class of every frame: [6, B, T] (-1 where not scored)."""
    lut = np.full(8, -1, dtype=np.int64)
    for s, c in CLASS_OF_SET.items():
        lut[s] = c
    out = []
    for p in PERMS:
        mask = spk[..., p[0]] + 2 * spk[..., p[1]] + 4 * spk[..., p[2]]
        out.append(lut[mask])
    return np.stack(out)


def batch_of(items, rng, n):
    xs, ys, vs = [], [], []
    weights = np.array([it[2]['frames'] - WINDOW + 1 for it in items], dtype=np.float64)
    weights /= weights.sum()
    for i in rng.choice(len(items), size=n, p=weights):
        it = items[i]
        x, y, v = crop(it, int(rng.integers(0, it[2]['frames'] - WINDOW + 1)))
        xs.append(x)
        ys.append(y)
        vs.append(v)
    return np.stack(xs), np.stack(ys), np.stack(vs)


def pit_loss(logp, spk, valid):
    t = torch.from_numpy(targets(spk))  # [6, B, T]
    v = torch.from_numpy(valid)
    losses = []
    for k in range(len(PERMS)):
        tk = t[k].clamp(min=0)
        nll = -logp.gather(-1, tk.unsqueeze(-1)).squeeze(-1)
        m = (v & (t[k] >= 0)).float()
        losses.append((nll * m).sum(1) / m.sum(1).clamp(min=1))
    return torch.stack(losses, 1).min(1).values.mean()


def decode(logp):
    """Powerset log-probabilities [B, T, 7] -> active local speakers [B, T, 3]."""
    sets = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 1, 0], [1, 0, 1], [0, 1, 1]])
    return sets[logp.argmax(-1)]


def changes(seq):
    """Frames where the set of active speakers changes from one non-empty set to another."""
    out = []
    prev = None
    for t, s in enumerate(seq):
        key = tuple(s)
        if sum(key) == 0:
            continue
        if prev is not None and key != prev:
            out.append(t)
        prev = key
    return out


def evaluate(model, held):
    """Figures on a fixed set of held-out crops: within-window DER (best permutation), speech,
    overlap and speaker-change detection."""
    model.eval()
    tot = dict(ref=0, miss=0, fa=0, conf=0, sp_tp=0, sp_p=0, sp_r=0, ov_tp=0, ov_p=0, ov_r=0, ch_tp=0, ch_p=0, ch_r=0, ch_tp_r=0)
    with torch.no_grad():
        for i in range(0, len(held), 64):
            xs = np.stack([h[0] for h in held[i:i + 64]])
            pred = decode(model(torch.from_numpy(xs)).numpy())
            for h, p in zip(held[i:i + 64], pred):
                ref, valid = h[1], h[2]
                r, q = ref[valid], p[valid]
                best = None
                for perm in PERMS:
                    qp = q[:, perm]
                    nr, nq = r.sum(1), qp.sum(1)
                    miss = np.maximum(nr - nq, 0).sum()
                    fa = np.maximum(nq - nr, 0).sum()
                    conf = (np.minimum(nr, nq) - (r & qp).sum(1)).sum()
                    if best is None or miss + fa + conf < sum(best):
                        best = (miss, fa, conf)
                tot['ref'] += int(r.sum())
                tot['miss'] += int(best[0])
                tot['fa'] += int(best[1])
                tot['conf'] += int(best[2])
                rs, qs = r.sum(1) > 0, q.sum(1) > 0
                tot['sp_tp'] += int((rs & qs).sum()); tot['sp_p'] += int(qs.sum()); tot['sp_r'] += int(rs.sum())
                ro, qo = r.sum(1) > 1, q.sum(1) > 1
                tot['ov_tp'] += int((ro & qo).sum()); tot['ov_p'] += int(qo.sum()); tot['ov_r'] += int(ro.sum())
                rc, qc = changes(r), changes(q)
                tol = 6  # output frames: 0.24 s
                tot['ch_p'] += len(qc); tot['ch_r'] += len(rc)
                tot['ch_tp'] += sum(1 for c in qc if any(abs(c - d) <= tol for d in rc))
                tot['ch_tp_r'] += sum(1 for d in rc if any(abs(c - d) <= tol for c in qc))
    model.train()
    div = lambda a, b: round(a / b, 4) if b else None
    return {
        'crops': len(held),
        'within_window_der': div(tot['miss'] + tot['fa'] + tot['conf'], tot['ref']),
        'missed': div(tot['miss'], tot['ref']), 'false_alarm': div(tot['fa'], tot['ref']), 'confusion': div(tot['conf'], tot['ref']),
        'speech_precision': div(tot['sp_tp'], tot['sp_p']), 'speech_recall': div(tot['sp_tp'], tot['sp_r']),
        'overlap_precision': div(tot['ov_tp'], tot['ov_p']), 'overlap_recall': div(tot['ov_tp'], tot['ov_r']),
        'overlap_share_of_speech': div(tot['ov_r'], tot['sp_r']),
        'change_precision': div(tot['ch_tp'], tot['ch_p']), 'change_recall': div(tot['ch_tp_r'], tot['ch_r']),
    }


def export(model, out, record):
    model.eval()
    dummy = torch.zeros(2, WINDOW, BINS)
    torch.onnx.export(model, dummy, out + '.onnx', input_names=['fbank'], output_names=['log_probs'],
                      dynamic_axes={'fbank': {0: 'batch'}, 'log_probs': {0: 'batch'}}, opset_version=13)
    sha = hashlib.sha256(open(out + '.onnx', 'rb').read()).hexdigest()
    spec = {
        'name': record['name'],
        'input': {'name': 'fbank', 'features': 'fbank', 'bins': BINS, 'window': 'povey', 'sampleScale': 32768},
        'output': {'name': 'log_probs', 'values': 'log-probabilities'},
        'windowSec': WINDOW / 100,
        'frameStepSec': STRIDE / 100,
        'frameDurationSec': STRIDE / 100,
        'frames': OUT_FRAMES,
        'classes': 'powerset-3-2',
    }
    json.dump(spec, open(out + '.json', 'w'), indent=1)
    record['onnx_sha256'] = sha
    model.train()


def load_onnx_weights(model, path):
    """The weights of an ONNX file this trainer exported, into `model`. torch.onnx keeps the names
    of convolution and normalisation weights; each linear layer's weight is stored transposed as an
    unnamed MatMul initializer, in the order of the model's layers."""
    import onnx
    from onnx import numpy_helper
    inits = onnx.load(path).graph.initializer
    named = {i.name: numpy_helper.to_array(i) for i in inits if not i.name.startswith('onnx::')}
    unnamed = [numpy_helper.to_array(i) for i in inits if i.name.startswith('onnx::')]
    state = model.state_dict()
    linear = [k for k in state if k not in named]
    if len(linear) != len(unnamed) or len(named) + len(unnamed) != len(state):
        raise SystemExit(f'{path}: not a network of this shape')
    for k in state:
        w = named[k] if k in named else unnamed[linear.index(k)].T
        if tuple(w.shape) != tuple(state[k].shape):
            raise SystemExit(f'{path}: {k} is {w.shape}, the model has {tuple(state[k].shape)}')
        state[k] = torch.from_numpy(np.array(w, dtype=np.float32, copy=True))
    model.load_state_dict(state)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--data', required=True)
    ap.add_argument('--out', required=True, help='path prefix: OUT.onnx, OUT.json, OUT.record.json, OUT.ckpt')
    ap.add_argument('--exclude-fold', type=int, default=None)
    ap.add_argument('--steps', type=int, default=12000)
    ap.add_argument('--batch', type=int, default=32)
    ap.add_argument('--lr', type=float, default=2e-3)
    ap.add_argument('--threads', type=int, default=1)
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--held-crops', type=int, default=600)
    ap.add_argument('--held-data', help="draw the held-out (and heard) crops from this export instead of --data's (another recipe's: the same crops for networks of different exports)")
    ap.add_argument('--channels', type=int, default=96, help='width of the convolutions and attention layers (96: the shipped networks, about 330 k weights)')
    ap.add_argument('--layers', type=int, default=2, help='self-attention layers (2: the shipped networks)')
    ap.add_argument('--name', default='rapport-segmentation')
    ap.add_argument('--init', help='start from the weights of this ONNX file (a network this trainer wrote, e.g. the shipped one) instead of random ones: fine-tuning')
    ap.add_argument('--export-checkpoint', help='write the checkpoint of --out as this path prefix (.onnx, .json) and stop: a look at a run under way')
    a = ap.parse_args()
    if a.steps < 4:
        ap.error('--steps must be at least 4 (the learning-rate schedule warms up, then decays)')
    if a.export_checkpoint:
        st = torch.load(a.out + '.ckpt')
        model = Segmenter(a.channels, a.layers)
        model.load_state_dict(st['model'])
        export(model, a.export_checkpoint, {'name': f"{a.name} (checkpoint at step {st['step']})"})
        print(f"step {st['step']} -> {a.export_checkpoint}.onnx")
        return
    torch.set_num_threads(a.threads)
    torch.manual_seed(a.seed)
    rng = np.random.default_rng(a.seed)
    items = load(a.data)
    train = [it for it in items if a.exclude_fold is None or it[2]['fold'] != a.exclude_fold]
    # The held-out crops (and, with --exclude-fold, as many crops of the voices it trains on: how
    # much of the held-out error is the voices being new) come from --held-data when given: an
    # export of another recipe, so that networks trained on different exports are measured on the
    # same crops.
    source = load(a.held_data) if a.held_data else items
    held_items = [it for it in source if a.exclude_fold is not None and it[2]['fold'] == a.exclude_fold]
    heard_items = [it for it in source if a.exclude_fold is not None and it[2]['fold'] != a.exclude_fold]
    def fixed_crops(pool):
        hrng = np.random.default_rng(12345)
        return [crop(it, int(hrng.integers(0, it[2]['frames'] - WINDOW + 1))) for it in (pool[int(hrng.integers(0, len(pool)))] for _ in range(a.held_crops))] if pool else []
    held = fixed_crops(held_items)
    model = Segmenter(a.channels, a.layers)
    if a.init:
        load_onnx_weights(model, a.init)
    opt = torch.optim.Adam(model.parameters(), lr=a.lr)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=a.lr, total_steps=a.steps, pct_start=max(0.05, 2 / a.steps))  # warm-up of at least 2 steps: one of exactly 1 divides by zero in OneCycleLR
    os.makedirs(os.path.dirname(os.path.abspath(a.out)), exist_ok=True)
    ckpt = a.out + '.ckpt'
    step, elapsed, history = 0, 0.0, []
    if os.path.exists(ckpt):
        st = torch.load(ckpt)
        model.load_state_dict(st['model']); opt.load_state_dict(st['opt']); sched.load_state_dict(st['sched'])
        step, elapsed, history = st['step'], st['elapsed'], st['history']
        rng = np.random.default_rng(a.seed + step)
        print(f'resumed at step {step}', flush=True)
    params = sum(p.numel() for p in model.parameters())
    t0 = time.time() - elapsed
    running = None
    while step < a.steps:
        x, y, v = batch_of(train, rng, a.batch)
        loss = pit_loss(model(torch.from_numpy(x)), y, v)
        opt.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), 5.0)
        opt.step()
        sched.step()
        step += 1
        running = loss.item() if running is None else 0.98 * running + 0.02 * loss.item()
        if step % 100 == 0:
            print(f'step {step} loss {running:.4f} {time.time() - t0:.0f} s', flush=True)
        if step % 500 == 0 or step == a.steps:
            entry = {'step': step, 'loss': round(running, 4), 'seconds': round(time.time() - t0)}
            if held and (step % 2000 == 0 or step == a.steps):
                entry['held_out'] = evaluate(model, held)
                print(json.dumps(entry), flush=True)
            history.append(entry)
            torch.save({'model': model.state_dict(), 'opt': opt.state_dict(), 'sched': sched.state_dict(), 'step': step, 'elapsed': time.time() - t0, 'history': history}, ckpt)
            rng = np.random.default_rng(a.seed + step)
    hours = sum(it[2]['frames'] for it in train) / 360000
    record = {
        'name': a.name,
        'trainer': 'training/train-segmentation.py',
        'args': vars(a),
        'torch': torch.__version__,
        'weights': params,
        'data': {'export': os.path.abspath(a.data), **export_recipe(a.data), 'conversations': len(train), 'hours': round(hours, 2),
                 'folds_excluded': a.exclude_fold, 'held_out_conversations': len(held_items),
                 'held_out_from': os.path.abspath(a.held_data) if a.held_data else None},
        'train_seconds': round(time.time() - t0),
        'history': history,
        'held_out': evaluate(model, held) if held else None,
        'heard': evaluate(model, fixed_crops(heard_items)) if heard_items else None,
    }
    export(model, a.out, record)
    json.dump(record, open(a.out + '.record.json', 'w'), indent=1)
    print(json.dumps({'held_out': record['held_out'], 'heard': record['heard']}), flush=True)


if __name__ == '__main__':
    main()
