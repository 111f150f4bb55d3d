#!/usr/bin/python3
"""Trains the neural window speaker embedding (packages/analysis/src/speech/diarization/speaker-net.ts).

    /usr/bin/python3 training/train-speaker-net.py --data EXPORT_DIR --out MODEL.json \
        [--steps 2500] [--channels 64] [--emb 128] [--keep 24] [--seed 1] [--threads 2]

EXPORT_DIR is written by training/export-sessions.ts: the engine's own per-frame speaker
features (standardised c1..c19 and log F0 of the voiced speech frames of simulated sessions),
each frame with its class (a voice at one speed factor). The network reads a run of such frames:

    conv k5 (20->C) -> conv k3 dil2 (C->C) -> conv k3 dil3 (C->C) -> conv k1 (C->2C)
    (ReLU then batch norm after each) -> mean and standard deviation over the run (4C)
    -> linear (4C -> E): the embedding

trained with an additive angular margin softmax (AAM, s=30, m=0.2) over the classes. Then an
LDA fitted on the embeddings of held-in windows whitens the within-class scatter and keeps `keep`
directions, so that distances read in units of one voice's spread, as the engine's thresholds
expect. Batch norms are folded into the convolutions, and the model is written as JSON
(base64 float32 arrays) with the command, data summary and checksum. Needs Debian's
python3-torch and python3-numpy; runs on CPU.
"""
import argparse, base64, hashlib, json, math, os, sys, time
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

from aam_softmax import AamSoftmax

p = argparse.ArgumentParser()
p.add_argument('--data', required=True)
p.add_argument('--out', required=True)
p.add_argument('--steps', type=int, default=2500)
p.add_argument('--batch', type=int, default=64)
p.add_argument('--channels', type=int, default=64)
p.add_argument('--emb', type=int, default=128)
p.add_argument('--keep', type=int, default=24)
p.add_argument('--seed', type=int, default=1)
p.add_argument('--threads', type=int, default=1)
p.add_argument('--lr', type=float, default=2e-3)
p.add_argument('--cmn', action='store_true', help='subtract each window\'s mean frame first (fbank exports; the engine does it: normalise "mean")')
p.add_argument('--exclude-fold', type=int, default=-1, help='train on the sessions of the other folds')
a = p.parse_args()
if a.steps < 4:
    p.error('--steps must be at least 4 (the learning-rate schedule warms up, then decays)')
torch.manual_seed(a.seed)
np.random.seed(a.seed)
torch.set_num_threads(a.threads)

meta = json.load(open(os.path.join(a.data, 'meta.json')))
D = meta['dims']
cep = np.fromfile(os.path.join(a.data, 'cep.f32'), dtype=np.float32).reshape(-1, D)
cls = np.fromfile(os.path.join(a.data, 'cls.i16'), dtype=np.int16).astype(np.int64)
frame = np.fromfile(os.path.join(a.data, 'frame.i32'), dtype=np.int32)
sess = np.fromfile(os.path.join(a.data, 'session.i32'), dtype=np.int32)
if a.exclude_fold >= 0:
    keep_f = (sess % meta['folds']) != a.exclude_fold
    cep, cls, frame, sess = cep[keep_f], cls[keep_f], frame[keep_f], sess[keep_f]
    assert not np.isin(cls // len(meta['speeds']), [i for i, f in enumerate(meta['voiceFolds']) if f == a.exclude_fold]).any()
N = len(cls)
print(f'{N} frames, {meta["classes"]} classes, {meta["sessions"]} sessions', file=sys.stderr)

# Blocks: runs of one class in one session (frame numbers may skip unvoiced frames).
change = np.ones(N, dtype=bool)
change[1:] = (cls[1:] != cls[:-1]) | (sess[1:] != sess[:-1]) | (frame[1:] - frame[:-1] > 100)
starts = np.flatnonzero(change)
ends = np.append(starts[1:], N)
keep_b = (ends - starts) >= 40
starts, ends = starts[keep_b], ends[keep_b]
classes_present = np.unique(cls[starts])
remap = -np.ones(meta['classes'], dtype=np.int64)
remap[classes_present] = np.arange(len(classes_present))
K = len(classes_present)
print(f'{len(starts)} blocks of >= 40 frames, {K} classes with blocks', file=sys.stderr)
# Hold out 10 % of the blocks to check the embedding (and fit the LDA on the rest).
rng = np.random.default_rng(a.seed)
perm = rng.permutation(len(starts))
n_val = max(1, len(starts) // 10)
val_idx, tr_idx = perm[:n_val], perm[n_val:]
X = torch.from_numpy(cep)


class Net(nn.Module):
    def __init__(s, C, E):
        super().__init__()
        s.convs = nn.ModuleList([nn.Conv1d(D, C, 5, padding=2), nn.Conv1d(C, C, 3, dilation=2, padding=2),
                                 nn.Conv1d(C, C, 3, dilation=3, padding=3), nn.Conv1d(C, 2 * C, 1)])
        s.bns = nn.ModuleList([nn.BatchNorm1d(C), nn.BatchNorm1d(C), nn.BatchNorm1d(C), nn.BatchNorm1d(2 * C)])
        s.emb = nn.Linear(8 * C // 2, E)

    def frames(s, x):  # x: B x D x T
        for c, b in zip(s.convs, s.bns):
            x = b(F.relu(c(x)))
        return x

    def forward(s, x):
        if a.cmn:
            x = x - x.mean(2, keepdim=True)
        h = s.frames(x)
        stats = torch.cat([h.mean(2), torch.sqrt(h.var(2, unbiased=False) + 1e-5)], 1)
        return s.emb(stats)


net = Net(a.channels, a.emb)
head = AamSoftmax(a.emb, K)
opt = torch.optim.Adam(list(net.parameters()) + list(head.parameters()), lr=a.lr, weight_decay=1e-5)
sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=a.lr, total_steps=a.steps, pct_start=max(0.15, 2 / a.steps))  # warm-up of at least 2 steps: one of exactly 1 divides by zero in OneCycleLR
blen = ends - starts


def batch(idx_pool, B, L):
    pool = idx_pool[blen[idx_pool] >= L]
    w = blen[pool].astype(np.float64)
    pick = rng.choice(pool, size=B, p=w / w.sum())
    xs, ys = [], []
    for b in pick:
        o = starts[b] + rng.integers(0, blen[b] - L + 1)
        xs.append(X[o:o + L])
        ys.append(remap[cls[starts[b]]])
    return torch.stack(xs).transpose(1, 2), torch.tensor(ys)


# Resumable: the state is saved every 250 steps beside the output, and a run that finds it goes on
# from there (the batches drawn after a resume differ from an uninterrupted run's).
ckpt = a.out + '.ckpt'
first = 0
if os.path.exists(ckpt):
    st = torch.load(ckpt)
    net.load_state_dict(st['net']); head.load_state_dict(st['head']); opt.load_state_dict(st['opt']); sched.load_state_dict(st['sched'])
    rng = np.random.default_rng([a.seed, st['step']])
    first = st['step']
    print(f'resumed at step {first}', file=sys.stderr)
t0 = time.time()
for step in range(first, a.steps):
    if step > first and step % 250 == 0:
        torch.save(dict(net=net.state_dict(), head=head.state_dict(), opt=opt.state_dict(), sched=sched.state_dict(), step=step), ckpt + '.tmp')
        os.replace(ckpt + '.tmp', ckpt)
    net.train(); head.train()
    L = int(rng.integers(40, 151))
    x, y = batch(tr_idx, a.batch, L)
    loss, acc = head(net(x), y)
    opt.zero_grad(); loss.backward(); opt.step(); sched.step()
    if step % 200 == 0 or step == a.steps - 1:
        print(f'step {step} L {L} loss {loss.item():.3f} acc {acc.item():.3f} {time.time() - t0:.0f}s', file=sys.stderr)

# Embeddings of windows of 100 frames (about 1.5 s of voiced speech), for the LDA and the check.
net.eval()


def embed_blocks(idx, L=100, per_block=3):
    # Windows of one length, so they go through the network 512 at a time (eval mode: the same
    # numbers as one at a time).
    offs, ys = [], []
    for b in idx:
        if blen[b] < L:
            continue
        for j in range(min(per_block, blen[b] // L)):
            offs.append(starts[b] + j * L)
            ys.append(remap[cls[starts[b]]])
    es = []
    with torch.no_grad():
        for i in range(0, len(offs), 512):
            xb = torch.stack([X[o:o + L] for o in offs[i:i + 512]]).transpose(1, 2)
            es.append(net(xb).numpy())
    return (np.concatenate(es).astype(np.float64) if es else np.zeros((0, a.emb))), np.array(ys)


Etr, Ytr = embed_blocks(tr_idx)
Eva, Yva = embed_blocks(val_idx)


def fit_lda(E, Y, keep, shrink=0.05):
    mu = E.mean(0)
    Sw = np.zeros((E.shape[1],) * 2)
    means = []
    for k in np.unique(Y):
        Z = E[Y == k]
        m = Z.mean(0)
        means.append(m)
        Sw += (Z - m).T @ (Z - m)
    Sw /= len(E)
    Sw = (1 - shrink) * Sw + shrink * np.trace(Sw) / len(Sw) * np.eye(len(Sw))
    M = np.array(means) - mu
    Sb = M.T @ M / len(M)
    # Whiten Sw, then the principal directions of the whitened Sb.
    w, V = np.linalg.eigh(Sw)
    Wh = V @ np.diag(1 / np.sqrt(w)) @ V.T
    b, U = np.linalg.eigh(Wh @ Sb @ Wh)
    order = np.argsort(b)[::-1][:keep]
    return mu, (Wh @ U[:, order]).T  # rows: output dims


mu, rows = fit_lda(Etr, Ytr, a.keep)


def eer(E, Y):
    if len(Y) < 2:
        return float('nan')
    Z = (E - mu) @ rows.T
    Z /= np.linalg.norm(Z, axis=1, keepdims=True)
    S = Z @ Z.T
    same = Y[:, None] == Y[None, :]
    iu = np.triu_indices(len(Y), 1)
    s, t = S[iu], same[iu]
    ths = np.quantile(s, np.linspace(0.01, 0.99, 197))
    best = 1.0
    for th in ths:
        far = (s[~t] >= th).mean(); frr = (s[t] < th).mean()
        best = min(best, max(far, frr))
    return best


print(f'held-in windows {len(Ytr)}, check windows {len(Yva)}; check EER (cosine after LDA) {eer(Eva, Yva):.3f}', file=sys.stderr)


def fold_bn(conv, bn):
    # y = bn(relu(conv x)): ReLU sits between, so the norm stays a per-channel scale and shift.
    g = (bn.weight / torch.sqrt(bn.running_var + bn.eps)).detach().numpy()
    beta = (bn.bias - bn.running_mean * bn.weight / torch.sqrt(bn.running_var + bn.eps)).detach().numpy()
    return conv.weight.detach().numpy(), conv.bias.detach().numpy(), g, beta


def b64(x):
    return base64.b64encode(np.ascontiguousarray(x, dtype='<f4').tobytes()).decode()


layers = []
for c, bn in zip(net.convs, net.bns):
    W, bias, g, beta = fold_bn(c, bn)
    layers.append(dict(inC=W.shape[1], outC=W.shape[0], kernel=W.shape[2], dilation=c.dilation[0],
                       weight=b64(W), bias=b64(bias), scale=b64(g), shift=b64(beta)))
weights = dict(**({'features': dict(meta['features'], normalise='mean' if a.cmn else 'none')} if 'features' in meta else {}), layers=layers, embWeight=b64(net.emb.weight.detach().numpy()), embBias=b64(net.emb.bias.detach().numpy()),
               ldaMean=b64(mu), ldaRows=b64(rows), emb=a.emb, keep=a.keep, dims=D)
# A check the engine's inference must reproduce: 120 frames of a held-out block through the
# network (no frame skipped), pooled over frames 10..110, and the LDA.
b0 = next(b for b in list(val_idx) + list(tr_idx) if blen[b] >= 120)
xin = cep[starts[b0]:starts[b0] + 120]
if a.cmn:  # the check's input as the engine gives it to the network: its mean frame removed
    xin = xin - xin.mean(0)
with torch.no_grad():
    hseq = net.frames(torch.from_numpy(xin).T.unsqueeze(0))[0, :, 10:110]
    st = torch.cat([hseq.mean(1), torch.sqrt(hseq.var(1, unbiased=False) + 1e-5)])
    e_chk = net.emb(st).numpy().astype(np.float64)
weights['check'] = dict(input=b64(xin), start=10, end=110, output=[float(v) for v in (rows @ (e_chk - mu))])
digest = hashlib.sha256(json.dumps(weights, sort_keys=True).encode()).hexdigest()
model = dict(name=f'tdnn-stats-aam-lda-c{a.channels}-e{a.emb}-k{a.keep}', windowFrames=150,
             trained=dict(command=' '.join(['training/train-speaker-net.py'] + sys.argv[1:]),
                          voices=[v for v, f in zip(meta['voices'], meta['voiceFolds']) if f != a.exclude_fold],
                          speeds=meta['speeds'], sessions=meta['sessions'], frames=int(N), classes=int(K),
                          excludedFold=a.exclude_fold, folds=meta['folds'], steps=a.steps, seed=a.seed,
                          checkEer=round(float(eer(Eva, Yva)), 4) if len(Yva) > 1 else None, sha256=digest),
             **weights)
json.dump(model, open(a.out, 'w'))
if os.path.exists(ckpt):
    os.remove(ckpt)
print(f'wrote {a.out} ({digest[:12]})', file=sys.stderr)
