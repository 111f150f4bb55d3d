#!/usr/bin/env python3
"""Trains a speaker embedding network over the engine's fbank, for the diarization's windows.

    /usr/bin/python3 training/train-window-embedding.py --data /work/emb-export --out /work/emb-net/fold-0 \
        [--exclude-fold 0] [--steps 2000] [--batch 96] [--crop 150] [--channels 192] [--threads 2]

The data is training/export-segmentation.ts's output (OUT/shard-*/: the 40-band fbank of every
10 ms frame and a bit per voice of the conversation). A training example is CROP frames where one
voice speaks alone, taken in order from that voice's solo frames of one conversation (gaps
skipped, as the engine embeds a local speaker's clean frames); its label is the voice (a voice
played faster or slower keeps its label). The conversations of fold K's voices are left out with
--exclude-fold K.

Network: the crop's mean frame removed (CMN, inside the graph), a time-delay network (five 1-D
convolutions, context 15 frames), mean and standard deviation pooled over time, a linear layer to
128 numbers; additive angular margin softmax (margin 0.2, scale 30) over the training voices.
Writes OUT.onnx (embedding [1, 128] from fbank [1, frames, 40]) and OUT.json (the description
onnx-embedding.ts reads: fbank input, not whitened) and OUT.record.json (settings, data, the loss
curve and timings). Needs Debian's python3-torch and python3-numpy; CPU only.
"""
import argparse
import glob
import hashlib
import json
import math
import os
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

from aam_softmax import AamSoftmax

BINS = 40
FBANK_SCALE = 256.0


class Embedder(nn.Module):
    def __init__(self, channels, dims=128):
        super().__init__()
        c = channels
        spec = [(BINS, c, 5, 1), (c, c, 3, 2), (c, c, 3, 3), (c, c, 1, 1), (c, 3 * c, 1, 1)]
        self.convs = nn.ModuleList(nn.Conv1d(i, o, k, dilation=d) for i, o, k, d in spec)
        self.norms = nn.ModuleList(nn.BatchNorm1d(o) for _, o, _, _ in spec)
        self.out = nn.Linear(6 * c, dims)

    def forward(self, x):  # x: [B, T, BINS]
        x = x - x.mean(dim=1, keepdim=True)
        x = x.transpose(1, 2)
        for conv, norm in zip(self.convs, self.norms):
            x = norm(F.relu(conv(x)))
        mean = x.mean(dim=2)
        std = torch.sqrt(torch.clamp((x * x).mean(dim=2) - mean * mean, min=1e-5))
        return self.out(torch.cat([mean, std], dim=1))


def load(data, exclude, crop):
    """Per (conversation, voice): the frame indices where that voice speaks alone (at least `crop`)."""
    items, voices = [], {}
    for d in sorted(glob.glob(os.path.join(data, 'shard-*'))):
        meta = json.load(open(os.path.join(d, 'meta.json')))
        assert meta['fbank']['bins'] == BINS
        fb = np.memmap(os.path.join(d, 'fbank.i16'), dtype=np.int16, mode='r').reshape(-1, BINS)
        act = np.memmap(os.path.join(d, 'active.u8'), dtype=np.uint8, mode='r')
        for c in meta['conversations']:
            if c['fold'] == exclude:
                continue
            bits = np.asarray(act[c['offset']:c['offset'] + c['frames']])
            for j, v in enumerate(c['voices']):
                solo = np.nonzero(bits == (1 << j))[0] + c['offset']
                if len(solo) >= crop:
                    items.append((fb, solo, voices.setdefault(v, len(voices))))
    return items, voices


def batch_of(items, rng, n, crop):
    xs, ys = [], []
    for i in rng.integers(0, len(items), n):
        fb, solo, label = items[i]
        a = rng.integers(0, len(solo) - crop + 1)
        xs.append(fb[solo[a:a + crop]].astype(np.float32) / FBANK_SCALE)
        ys.append(label)
    return torch.from_numpy(np.stack(xs)), torch.tensor(ys)


def main():
    p = argparse.ArgumentParser()
    p.add_argument('--data', required=True)
    p.add_argument('--out', required=True)
    p.add_argument('--exclude-fold', type=int, default=-1)
    p.add_argument('--steps', type=int, default=2000)
    p.add_argument('--batch', type=int, default=96)
    p.add_argument('--crop', type=int, default=150)
    p.add_argument('--channels', type=int, default=192)
    p.add_argument('--threads', type=int, default=2)
    p.add_argument('--seed', type=int, default=1)
    a = p.parse_args()
    if a.steps < 4:
        p.error('--steps must be at least 4 (the learning-rate schedule warms up, then decays)')
    torch.set_num_threads(a.threads)
    torch.manual_seed(a.seed)
    rng = np.random.default_rng(a.seed)
    started = time.time()
    items, voices = load(a.data, a.exclude_fold, a.crop)
    print(f'{len(items)} voice appearances of {len(voices)} voices', flush=True)
    model = Embedder(a.channels)
    head = AamSoftmax(128, len(voices))
    params = list(model.parameters()) + list(head.parameters())
    opt = torch.optim.Adam(params, lr=2e-3, weight_decay=1e-5)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=2e-3, total_steps=a.steps, pct_start=max(0.1, 2 / a.steps))  # warm-up of at least 2 steps: one of exactly 1 divides by zero in OneCycleLR
    curve = []
    model.train()
    for step in range(1, a.steps + 1):
        x, y = batch_of(items, rng, a.batch, a.crop)
        loss, acc = head(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        if step % 100 == 0:
            curve.append({'step': step, 'loss': round(loss.item(), 4), 'accuracy': round(acc.item(), 4), 'sec': round(time.time() - started)})
            print(curve[-1], flush=True)
    model.eval()
    os.makedirs(os.path.dirname(os.path.abspath(a.out)), exist_ok=True)
    torch.onnx.export(model, torch.zeros(1, a.crop, BINS), a.out + '.onnx', input_names=['fbank'], output_names=['embedding'],
                      dynamic_axes={'fbank': {1: 'frames'}}, opset_version=13)
    name = f'window-fbank-tdnn-v0 (fold {a.exclude_fold} left out)' if a.exclude_fold >= 0 else 'window-fbank-tdnn-v0'
    spec = {'name': name, 'input': {'name': 'fbank', 'features': 'fbank', 'bins': BINS, 'window': 'povey', 'sampleScale': 32768, 'normalise': 'none'},
            'output': {'name': 'embedding', 'dims': 128}, 'windowSec': a.crop / 100, 'whitened': False}
    json.dump(spec, open(a.out + '.json', 'w'), indent=2)
    record = {'settings': vars(a), 'voices': len(voices), 'appearances': len(items), 'curve': curve, 'seconds': round(time.time() - started),
              'sha256': hashlib.sha256(open(a.out + '.onnx', 'rb').read()).hexdigest(), 'torch': torch.__version__}
    json.dump(record, open(a.out + '.record.json', 'w'), indent=2)
    print(f'wrote {a.out}.onnx in {record["seconds"]} s', flush=True)


if __name__ == '__main__':
    main()
