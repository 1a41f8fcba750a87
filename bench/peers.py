#!/usr/bin/env python3
# ===- bench/peers.py - PyTorch eager, torch.compile and JAX peers -----=== #
#
# Part of the memopt project.
#
# Times the memopt workloads W1..W8 in PyTorch eager mode, under
# torch.compile and under JAX jit (XLA), on the same shapes and dtypes as the
# compiler's examples. The torch modes are timed the same way memopt-run
# times its pipelines: CUDA events around each call, warm-up runs first,
# median of >= 20 timed runs. JAX has no CUDA events: each call is timed with
# a wall clock around the jitted call and block_until_ready (same warm-up and
# median). Unlike CUDA events this includes the dispatch and the host's wait
# for completion, so it is an upper bound: on an H200 with JAX 0.11, 85 us
# for a trivial kernel, and 1.3x to 2x the profiler's kernel time for
# kernels of 0.07 to 1 ms. So JAX entries also hold pipelined_ms, the mean of
# as many calls issued back to back with one block_until_ready at the end;
# it was within 5% of the profiler's kernel time for kernels longer than the
# dispatch (~45 us). JAX gets the torch inputs' values (copied through the
# host) and, like torch.compile, is checked against eager. Also
# measures the device-to-device copy bandwidth in the same process (copy_ of
# a 1 GiB tensor, bytes read + written) so every fraction is against a
# bandwidth measured in this run.
#
# PyTorch is needed for every mode; JAX is imported only when the jax mode
# is asked for (it is by default), after XLA_PYTHON_CLIENT_PREALLOCATE=false
# (JAX shares the GPU with torch).
# Without JAX or its GPU backend, each workload's "jax" entry records the
# error and the other modes run as usual.
#
# Usage: peers.py [--only w1,w2] [--json out.json] [--warmup N] [--iters N]
#                 [--modes eager,compile,jax]
# Exit codes: 0 ok (per-workload errors are recorded in the JSON), 2 usage,
# 3 no CUDA device.
#
# ===--------------------------------------------------------------------=== #

import argparse
import datetime
import json
import os
import statistics
import sys
import time
import traceback

ROWS, COLS = 16384, 4096
GIB = 1 << 30


def _workloads(torch):
    """Returns {name: (description, make_inputs, fn)}; fn returns a tensor or
    a tuple of tensors. Definitions match examples/w*.mlir."""
    F = torch.nn.functional

    def rand(*shape):
        # Uniform in [-1, 1), like memopt-run's fills.
        return torch.rand(*shape, device="cuda", dtype=torch.float32) * 2 - 1

    def w1(x, s, b, r):
        return F.gelu(x * s + b, approximate="tanh") + r

    def w2(x, r, g, b):
        h = x + r
        mean = h.mean(-1, keepdim=True)
        var = h.var(-1, unbiased=False, keepdim=True)
        return (h - mean) / torch.sqrt(var + 1e-5) * g + b

    def w3(x, g):
        return x * torch.rsqrt((x * x).mean(-1, keepdim=True) + 1e-6) * g

    def w4(x):
        return torch.softmax(x, -1)

    def w5(x):
        return x.t().contiguous()

    def tfused(x, b):
        return torch.relu((2 * x).t() + b)

    def w6(p):
        m = p[:, 6]
        return 0.5 * m * (p[:, 3] * p[:, 3] + p[:, 4] * p[:, 4] +
                          p[:, 5] * p[:, 5])

    def w7(x):
        return x.sum(0)

    def aos16(p):
        return p[:, 2] * p[:, 9]

    def lnf16(x, g, b):
        h = x.float()
        mean = h.mean(-1, keepdim=True)
        var = ((h - mean) * (h - mean)).mean(-1, keepdim=True)
        return (h - mean) * torch.rsqrt(var + 1e-5) * g + b

    def w8(x, g):
        n = x * torch.rsqrt((x * x).mean(-1, keepdim=True) + 1e-6) * g
        scale = n.abs().amax(-1) / 127
        q = torch.clamp(torch.round(n / scale[:, None]), -127, 127).to(torch.int8)
        return q, scale

    def inorm(x, g, b):
        # Instance norm over (H, W), E[x^2] - mean^2 as the memopt input.
        mean = x.mean((2, 3), keepdim=True)
        var = (x * x).mean((2, 3), keepdim=True) - mean * mean
        return ((x - mean) * torch.rsqrt(var + 1e-5) * g[:, None, None] +
                b[:, None, None])

    def ln2d(x, g):
        # LayerNorm over the last two dims, two-pass, weight only.
        c = x - x.mean((2, 3), keepdim=True)
        v = (c * c).mean((2, 3), keepdim=True)
        return c * torch.rsqrt(v + 1e-5) * g

    def rowmaxr(x):
        m = x.amax(-1)
        return m, torch.exp(x - m[:, None])

    def wnorm(x):
        return x / (x * x).sum()

    def bntrain(x, g, b):
        # Batch-norm training forward, two-pass statistics as the input.
        mean = x.mean((0, 2, 3))
        c = x - mean[None, :, None, None]
        var = (c * c).mean((0, 2, 3))
        y = (c * torch.rsqrt(var + 1e-5)[None, :, None, None] *
             g[None, :, None, None] + b[None, :, None, None])
        return y, mean, var

    def gnnhwc(x, g, b):
        n, h, w, ch = x.shape
        xe = x.reshape(n, h, w, 32, ch // 32)
        mean = xe.mean((1, 2, 4), keepdim=True)
        c = xe - mean
        var = (c * c).mean((1, 2, 4), keepdim=True)
        return (c * torch.rsqrt(var + 1e-5)).reshape(n, h, w, ch) * g + b

    def l2n1(x):
        return torch.nn.functional.normalize(x, p=2.0, dim=1)

    def welford(x):
        var, mean = torch.var_mean(x, -1)
        return var, mean

    def attnout(o, b):
        return o.transpose(1, 2).reshape(o.shape[0], o.shape[2], -1) + b

    def maskmean(x, m):
        return (x * m).sum(-1) / m.sum(-1).float()

    def gn(x):
        # Group norm statistics over (C/G, HW) in f32, f16 in, f32 out.
        h = x.float()
        mean = h.mean((2, 3), keepdim=True)
        var = (h * h).mean((2, 3), keepdim=True) - mean * mean
        return (h - mean) * torch.rsqrt(var + 1e-5)

    def lnbwd(dy, x, gamma, mean, rstd):
        # LayerNorm backward's dx, bf16 in and out, f32 accumulation.
        g = dy.float() * gamma.float()
        xhat = (x.float() - mean[:, None]) * rstd[:, None]
        n = x.shape[-1]
        dx = rstd[:, None] * (g - (g.sum(-1, keepdim=True) +
                                   xhat * (g * xhat).sum(-1, keepdim=True)) / n)
        return dx.to(torch.bfloat16)

    def lnbwdf(dy, x, gamma, mean, rstd):
        # LayerNorm backward whole: dx (bf16), dgamma and dbeta (f32).
        xhat = (x.float() - mean[:, None]) * rstd[:, None]
        return (lnbwd(dy, x, gamma, mean, rstd), (dy.float() * xhat).sum(0),
                dy.float().sum(0))

    def rmsbwd(dy, x, gamma, rstd):
        # RMSNorm backward: dx (bf16) and dgamma (f32); rstd is [rows, 1].
        g = dy.float() * gamma.float()
        xf = x.float()
        n = x.shape[-1]
        s = (g * xf).sum(-1, keepdim=True)
        dx = rstd * g - xf * rstd * rstd * rstd * s / n
        return dx.to(torch.bfloat16), (dy.float() * xf * rstd).sum(0)

    def midmean(x):
        return x.mean(1)

    def bnstats(x):
        var, mean = torch.var_mean(x, (0, 2, 3), unbiased=False)
        return mean, var

    def colwide(x):
        return x.sum(0)

    def colnarrow(x):
        return x.float().sum(0)

    def colstats(x):
        var, mean = torch.var_mean(x.float(), 0, unbiased=False)
        return mean, var

    def colstatsn(x):
        xf = x.float()
        return xf.sum(0), (xf * xf).sum(0)

    def sm0(x):
        return torch.softmax(x, 0)

    def sm1(x):
        return torch.softmax(x, 1)

    def attnmask(x, mask):
        return torch.softmax(x * 0.125 + mask, -1)

    def attnmaskbf(x, mask):
        return torch.softmax(x.float() * 0.0883883461 + mask, -1).bfloat16()

    def posadd(x, pos):
        return x + pos

    def lse(x):
        return torch.logsumexp(x.float(), -1)

    def lsef32(x):
        return torch.logsumexp(x, -1, keepdim=True)

    def argmax(x):
        return torch.argmax(x, -1)

    def ln0(x):
        h = x.float()
        m = h.mean(0, keepdim=True)
        v = ((h - m) * (h - m)).mean(0, keepdim=True)
        return ((h - m) * torch.rsqrt(v + 1e-5)).bfloat16()

    def biasgelu(x, b):
        return F.gelu(x.float() + b.float(), approximate="tanh").bfloat16()

    def dgeludb(dy, x):
        # GELU (tanh) backward and the bias gradient: dx in bf16, dbias the
        # f32 column sum of that bf16 dx.
        xf = x.float()
        k, c = 0.7978845608028654, 0.044715
        t = torch.tanh(k * (xf + c * xf * xf * xf))
        d = 0.5 * (1 + t) + 0.5 * xf * (1 - t * t) * k * (1 + 3 * c * xf * xf)
        dx = (dy.float() * d).bfloat16()
        return dx, dx.float().sum(0)

    def rmsdec(x, g):
        h = x.float()
        return (h * torch.rsqrt((h * h).mean(-1, keepdim=True) + 1e-6) *
                g.float()).bfloat16()

    def addrmsdec(x, r, g):
        h = x + r
        return h, rmsdec(h, g)

    def gemmarms(x, w):
        h = x.float()
        return (h * torch.rsqrt((h * h).mean(-1, keepdim=True) + 1e-6) *
                (1.0 + w.float())).bfloat16()

    def decatt(q, k, v):
        # Decode attention, one query per head: [H, D] x [H, T, D].
        s = (q[:, None, :] @ k.transpose(-1, -2)) * (k.shape[-1] ** -0.5)
        return (torch.softmax(s, -1) @ v)[:, 0, :]

    def decattbf(q, k, v):
        # The same in bf16 as torch writes it (q is [H, 1, D]); the
        # scores and the softmax in f32, the probabilities rounded to bf16.
        s = (q @ k.transpose(-1, -2)).float() * (k.shape[-1] ** -0.5)
        return torch.softmax(s, -1).bfloat16() @ v

    def vecmat(x, w):
        # One token's projection: bf16 in and out, f32 accumulation.
        return x @ w

    def rope(x, c, s):
        # Interleaved pairs: fields 0 and 1 of the last dim, tables per
        # (position, pair) broadcast over heads, f32 math, bf16 out.
        x0, x1 = x[..., 0].float(), x[..., 1].float()
        c, s = c[:, None, :], s[:, None, :]
        return torch.stack([x0 * c - x1 * s, x0 * s + x1 * c], -1).bfloat16()

    def ropef16(x, c, s):
        x0, x1 = x[..., 0].float(), x[..., 1].float()
        c, s = c[:, None, :].float(), s[:, None, :].float()
        return torch.stack([x0 * c - x1 * s, x0 * s + x1 * c], -1).half()

    def cmul(a, b):
        return torch.view_as_real(torch.view_as_complex(a) *
                                  torch.view_as_complex(b))

    def ropeneox(x, c, s):
        # Hugging Face's rotate_half form, bf16 throughout: tables per
        # (position, dim) broadcast over heads.
        h = x.shape[-1] // 2
        rot = torch.cat((-x[..., h:], x[..., :h]), -1)
        return x * c[:, None, :] + rot * s[:, None, :]

    def dequant4(w, scale):
        # Signed int4 weights two to a byte (low nibble first), times a f16
        # scale per group of 128: nibbles shifted to the top of an int8 and
        # back (arithmetic), as GPTQ/AWQ-style unpacking does.
        lo = (w << 4) >> 4
        hi = w >> 4
        q = torch.stack((lo, hi), -1).reshape(*w.shape[:-1], -1)
        y = q.half() * scale[..., None]
        return y.reshape(w.shape[0], -1)

    def dequantu4(w, scale, zp):
        # Unsigned nibbles (low first) with a zero point, f32 math, bf16 out.
        wi = w.to(torch.int32) & 0xFF
        q = torch.stack((wi & 15, wi >> 4), -1).reshape(*w.shape[:-1], -1)
        y = (q.float() - zp.float()[..., None]) * scale.float()[..., None]
        return y.bfloat16().reshape(w.shape[0], -1)

    def qkvnorm(qkv, wq, wk):
        # QK-norm on a fused projection's output: q, k, v = unbind(1),
        # RMSNorm of q and k over the head dim in f32, v made contiguous
        # (memopt writes it as an output too).
        q, k, v = qkv.unbind(1)

        def rms(t, w):
            f = t.float()
            return (f * torch.rsqrt((f * f).mean(-1, keepdim=True) + 1e-6) *
                    w.float()).bfloat16()
        return rms(q, wq), rms(k, wk), v.contiguous()

    return {
        "ropef16": ("rotary embedding on interleaved pairs, 8x1024x16x32x2 "
                    "f16, f16 tables",
                    lambda: (rand(8, 1024, 16, 32, 2).half(),
                             rand(1024, 32).half(), rand(1024, 32).half()),
                    ropef16),
        "cmul": ("complex multiplication of interleaved f32, 4096x8192x2",
                 lambda: (rand(4096, 8192, 2), rand(4096, 8192, 2)), cmul),
        "ropeneox": ("NeoX rotary (rotate_half via slices and cat), "
                     "4x2048x32x128 bf16, bf16 tables",
                     lambda: (rand(4, 2048, 32, 128).bfloat16(),
                              rand(2048, 128).bfloat16(),
                              rand(2048, 128).bfloat16()), ropeneox),
        "dequant4": ("group-wise int4 dequantization, 8192x4096 signed "
                     "i4 packed two to a byte, f16 scale per 128, f16 out",
                     lambda: (torch.randint(-128, 128, (8192, 32, 64),
                                            device="cuda", dtype=torch.int8),
                              rand(8192, 32).half()), dequant4),
        "dequant4l": ("group-wise int4 dequantization, 14336x4096 signed "
                      "i4 packed two to a byte, f16 scale per 128, f16 out",
                      lambda: (torch.randint(-128, 128, (14336, 32, 64),
                                             device="cuda", dtype=torch.int8),
                               rand(14336, 32).half()), dequant4),
        "dequantu4": ("AWQ-style uint4 dequantization with zero points, "
                      "4096x14336 packed two to a byte, bf16 scale and zero "
                      "point per 128, f32 math, bf16 out",
                      lambda: (torch.randint(-128, 128, (4096, 112, 64),
                                             device="cuda", dtype=torch.int8),
                               rand(4096, 112).bfloat16(),
                               (rand(4096, 112) * 8 + 8).bfloat16()),
                      dequantu4),
        "qkvnorm": ("QK-norm on a fused QKV output split by unbind, "
                    "8192x3x32x128 bf16",
                    lambda: (rand(8192, 3, 32, 128).bfloat16(),
                             rand(128).bfloat16(), rand(128).bfloat16()),
                    qkvnorm),
        "rope": ("rotary embedding on interleaved pairs, 4x2048x32x64x2 bf16, "
                 "f32 tables",
                 lambda: (rand(4, 2048, 32, 64, 2).bfloat16(), rand(2048, 64),
                          rand(2048, 64)), rope),
        "vecmat": ("decode projection x @ W, 4096 x (4096x14336), bf16",
                   lambda: (rand(4096).bfloat16(),
                            rand(4096, 14336).bfloat16()), vecmat),
        "biasgelu": ("bf16 bias + tanh-GELU in f32, 16384x4096 bf16",
                     lambda: (rand(ROWS, COLS).bfloat16(),
                              rand(COLS).bfloat16()), biasgelu),
        "dgeludb": ("GELU backward + bias gradient, 16384x4096 bf16, f32 "
                    "accumulation",
                    lambda: (rand(ROWS, COLS).bfloat16(),
                             rand(ROWS, COLS).bfloat16()), dgeludb),
        "decatt": ("decode attention, 64 heads x 4096 tokens x 128, f32",
                   lambda: (rand(64, 128), rand(64, 4096, 128),
                            rand(64, 4096, 128)), decatt),
        "decattbf": ("decode attention as torch writes it, 64 heads x 8192 "
                     "tokens x 128, bf16",
                     lambda: (rand(64, 1, 128).bfloat16(),
                              rand(64, 8192, 128).bfloat16(),
                              rand(64, 8192, 128).bfloat16()), decattbf),
        "gemmarms": ("Gemma RMSNorm, 4096x2048 bf16, f32 statistics, "
                     "weight 1 + w",
                     lambda: (rand(4096, 2048).bfloat16(),
                              rand(2048).bfloat16()), gemmarms),
        "rmsdec1": ("decode RMSNorm, 1x8192 bf16, f32 statistics",
                    lambda: (rand(1, 8192).bfloat16(),
                             rand(8192).bfloat16()), rmsdec),
        "rmsdec16": ("decode RMSNorm, 16x8192 bf16, f32 statistics",
                     lambda: (rand(16, 8192).bfloat16(),
                              rand(8192).bfloat16()), rmsdec),
        "rmsdec64": ("decode RMSNorm, 64x8192 bf16, f32 statistics",
                     lambda: (rand(64, 8192).bfloat16(),
                              rand(8192).bfloat16()), rmsdec),
        "addrmsdec32": ("decode residual add + RMSNorm, 32x4096 bf16",
                        lambda: (rand(32, 4096).bfloat16(),
                                 rand(32, 4096).bfloat16(),
                                 rand(4096).bfloat16()), addrmsdec),
        "lnbwdf": ("LayerNorm backward dx, dgamma, dbeta, 16384x4096 bf16, "
                   "f32 accumulation",
                   lambda: (rand(ROWS, COLS).bfloat16(),
                            rand(ROWS, COLS).bfloat16(), rand(COLS).bfloat16(),
                            rand(ROWS), rand(ROWS) + 2), lnbwdf),
        "rmsbwd": ("RMSNorm backward dx, dgamma, 16384x4096 bf16, f32 "
                   "accumulation",
                   lambda: (rand(ROWS, COLS).bfloat16(),
                            rand(ROWS, COLS).bfloat16(), rand(COLS).bfloat16(),
                            rand(ROWS, 1) + 2), rmsbwd),
        "midmean": ("mean over the middle dim, (64, 512, 1024) f32",
                    lambda: (rand(64, 512, 1024),), midmean),
        "bnstats": ("batch-norm statistics of NCHW (64, 128, 56, 56) f32",
                    lambda: (rand(64, 128, 56, 56),), bnstats),
        "colwide": ("column sums, 384x65536 f32",
                    lambda: (rand(384, 65536),), colwide),
        "colnarrow": ("column sums, 1048576x64 bf16, f32 accumulation",
                      lambda: (rand(1048576, 64).bfloat16(),), colnarrow),
        "colstats": ("column mean and variance, 16384x4096 bf16, f32 "
                     "accumulation",
                     lambda: (rand(16384, 4096).bfloat16(),), colstats),
        "colstatsn": ("column sum and sum of squares, 1048576x64 f16, f32 "
                      "accumulation",
                      lambda: (rand(1048576, 64).half(),), colstatsn),
        "sm0": ("softmax over dim 0, 8192x4096 f32",
                lambda: (rand(8192, 4096),), sm0),
        "sm1": ("softmax over dim 1, (16, 2048, 1024) f32",
                lambda: (rand(16, 2048, 1024),), sm1),
        "attnmask": ("softmax(x * 0.125 + mask) over rows of 2048, x "
                     "2x8x2048x2048 f32, mask 2x1x2048x2048 broadcast over "
                     "heads",
                     lambda: (rand(2, 8, 2048, 2048), rand(2, 1, 2048, 2048)),
                     attnmask),
        "attnmaskbf": ("softmax(float(x) * scale + mask) to bf16, x "
                       "4x8x2048x2048 bf16, an f32 mask 2048x2048 broadcast "
                       "over batch and heads",
                       lambda: (rand(4, 8, 2048, 2048).bfloat16(),
                                rand(2048, 2048)), attnmaskbf),
        "lse": ("log-sum-exp over rows of 131072, 2048x131072 bf16, f32 math",
                lambda: (rand(2048, 131072).bfloat16(),), lse),
        "lse128k": ("log-sum-exp over rows of 128256 (Llama-3 vocabulary), "
                    "2048x128256 bf16, f32 math",
                    lambda: (rand(2048, 128256).bfloat16(),), lse),
        "lse50k": ("log-sum-exp over rows of 50257 (GPT-2 vocabulary), "
                   "4096x50257 bf16, f32 math",
                   lambda: (rand(4096, 50257).bfloat16(),), lse),
        "lsef32": ("log-sum-exp over rows of 131072 f32, 1024x131072, "
                   "keepdim", lambda: (rand(1024, 131072),), lsef32),
        "lsedec64": ("log-sum-exp at decode time, 64 rows of 128256 "
                     "(Llama-3 vocabulary) bf16, f32 math",
                     lambda: (rand(64, 128256).bfloat16(),), lse),
        "lsepre128": ("log-sum-exp over rows of 128256 (Llama-3 vocabulary) "
                      "for a prefill of 128 tokens, 128x128256 bf16, f32 math",
                      lambda: (rand(128, 128256).bfloat16(),), lse),
        "lsedec1": ("log-sum-exp at decode time, one row of 128256 "
                    "(Llama-3 vocabulary) bf16, f32 math",
                    lambda: (rand(1, 128256).bfloat16(),), lse),
        "lsedec16": ("log-sum-exp at decode time, 16 rows of 128256 "
                     "(Llama-3 vocabulary) bf16, f32 math",
                     lambda: (rand(16, 128256).bfloat16(),), lse),
        "argdec1": ("argmax at greedy decoding, one row of 128256 (Llama-3 "
                    "vocabulary) bf16 logits, i64 index",
                    lambda: (rand(1, 128256).bfloat16(),), argmax),
        "argdec64": ("argmax over 64 rows of 128256 bf16 logits, i64 indices",
                     lambda: (rand(64, 128256).bfloat16(),), argmax),
        "argpre": ("argmax over 2048 rows of 32000 f32 logits, i64 indices",
                   lambda: (rand(2048, 32000),), argmax),
        "posadd": ("x + pos, 8x4096x2048 f32, pos 1x4096x2048 broadcast "
                   "over the batch",
                   lambda: (rand(8, 4096, 2048), rand(1, 4096, 2048)), posadd),
        "ln0": ("LayerNorm over dim 0, 8192x4096 bf16, f32 statistics",
                lambda: (rand(8192, 4096).bfloat16(),), ln0),
        "gn": ("group norm (32, 32, 16, 4096) f16 in, f32 stats and out",
               lambda: (rand(32, 32, 16, 4096).half(),), gn),
        "inorm": ("instance norm over (H, W) of (16, 64, 128, 128) f32, "
                  "affine weights",
                  lambda: (rand(16, 64, 128, 128), rand(64), rand(64)), inorm),
        "ln2d": ("LayerNorm over the last two dims of (32, 8, 256, 256) f32, "
                 "weight (256, 256)",
                 lambda: (rand(32, 8, 256, 256), rand(256, 256)), ln2d),
        "rowmaxr": ("row max and exp(x - max), 16384x4096 f32 (IREE-style "
                    "loop order in the memopt input)",
                    lambda: (rand(ROWS, COLS),), rowmaxr),
        "wnorm": ("x / sum(x * x) over a whole 4096x4096 f32 tensor",
                  lambda: (rand(4096, 4096),), wnorm),
        "bntrain": ("batch-norm training forward NCHW (32, 256, 56, 56) "
                    "f32, two-pass batch statistics, y, mean and var out",
                    lambda: (rand(32, 256, 56, 56), rand(256), rand(256)),
                    bntrain),
        "gnnhwc": ("group norm NHWC (16, 64, 64, 512) f32, 32 groups, "
                   "two-pass statistics, per-channel affine",
                   lambda: (rand(16, 64, 64, 512), rand(512), rand(512)),
                   gnnhwc),
        "l2n1": ("F.normalize(x, dim=1) of (63, 256, 1001) f32",
                 lambda: (rand(63, 256, 1001),), l2n1),
        "welford": ("row mean and unbiased variance (Welford's recurrence "
                    "in the input), 16384x4096 f32",
                    lambda: (rand(ROWS, COLS),), welford),
        "rms128o": ("RMSNorm over 262143 bf16 rows of 128, f32 statistics",
                    lambda: (rand(262143, 128).bfloat16(),
                             rand(128).bfloat16()), rmsdec),
        "attnout": ("attention output o.transpose(1, 2).reshape(B, T, H * D) "
                    "+ bias, o 4x32x1024x128 f32",
                    lambda: (rand(4, 32, 1024, 128), rand(4096)), attnout),
        "maskmean": ("masked mean over rows, 16384x4096 f32 and a bool mask "
                     "(the count summed into i64)",
                     lambda: (rand(ROWS, COLS), rand(ROWS, COLS) > 0), maskmean),
        "lnbwd": ("LayerNorm backward dx, 16384x4096 bf16, f32 accumulation",
                  lambda: (rand(ROWS, COLS).bfloat16(),
                           rand(ROWS, COLS).bfloat16(), rand(COLS).bfloat16(),
                           rand(ROWS), rand(ROWS) + 2), lnbwd),
        "w1": ("y = gelu_tanh(x*s + b) + r, 16384x4096 f32",
               lambda: (rand(ROWS, COLS), rand(COLS), rand(COLS),
                        rand(ROWS, COLS)), w1),
        "w2": ("LayerNorm(x + r) * g + b, 16384x4096 f32",
               lambda: (rand(ROWS, COLS), rand(ROWS, COLS), rand(COLS),
                        rand(COLS)), w2),
        "w3": ("RMSNorm(x) * g, 16384x4096 f32",
               lambda: (rand(ROWS, COLS), rand(COLS)), w3),
        "w4": ("softmax over rows, 16384x4096 f32",
               lambda: (rand(ROWS, COLS),), w4),
        "w5": ("transpose 8192x8192 f32",
               lambda: (rand(8192, 8192),), w5),
        "tfused": ("relu(transpose(2x) + b) 8192x8192 f32",
                   lambda: (rand(8192, 8192), rand(8192)), tfused),
        "rml65k": ("RMSNorm(x) * g, rows of 65536, 4096x65536 f32",
                   lambda: (rand(4096, 65536), rand(65536)), w3),
        "rml256k": ("RMSNorm(x) * g, rows of 262144, 1024x262144 f32",
                    lambda: (rand(1024, 262144), rand(262144)), w3),
        "sml65k": ("softmax over rows of 65536, 4096x65536 f32",
                   lambda: (rand(4096, 65536),), w4),
        "sml256k": ("softmax over rows of 262144, 1024x262144 f32",
                    lambda: (rand(1024, 262144),), w4),
        "w6": ("kinetic energy from AoS particles [2^25, 8] f32",
               lambda: (rand(1 << 25, 8),), w6),
        "aos16": ("two fields of [2^24, 16] f32 records multiplied",
                  lambda: (rand(1 << 24, 16),), aos16),
        "w7": ("column sum of 16384x4096 f32",
               lambda: (rand(ROWS, COLS),), w7),
        "lnf16": ("LayerNorm of f16 x extended to f32, 16384x4096 f16 in, f32 out",
                  lambda: (rand(ROWS, COLS).half(), rand(COLS), rand(COLS)),
                  lnf16),
        "w8": ("RMSNorm + per-row int8 absmax quantization, 16384x4096 f32",
               lambda: (rand(ROWS, COLS), rand(COLS)), w8),
    }


def _jax_workloads(jax):
    """Returns {name of the torch function in _workloads: JAX function
    computing the same}, so every workload sharing a torch function (w3 and
    rml65k) shares its JAX one."""
    jnp, nn, lax = jax.numpy, jax.nn, jax.lax

    def w1(x, s, b, r):
        return nn.gelu(x * s + b, approximate=True) + r  # tanh form

    def w2(x, r, g, b):
        h = x + r
        mean = jnp.mean(h, -1, keepdims=True)
        var = jnp.var(h, -1, keepdims=True)  # biased, like unbiased=False
        return (h - mean) / jnp.sqrt(var + 1e-5) * g + b

    def w3(x, g):
        return x * lax.rsqrt(jnp.mean(x * x, -1, keepdims=True) + 1e-6) * g

    def w4(x):
        return nn.softmax(x, axis=-1)

    def w5(x):
        return x.T

    def tfused(x, b):
        return nn.relu((2 * x).T + b)

    def w6(p):
        m = p[:, 6]
        return 0.5 * m * (p[:, 3] * p[:, 3] + p[:, 4] * p[:, 4] +
                          p[:, 5] * p[:, 5])

    def w7(x):
        return x.sum(0)

    def aos16(p):
        return p[:, 2] * p[:, 9]

    def lnf16(x, g, b):
        h = x.astype(jnp.float32)
        mean = jnp.mean(h, -1, keepdims=True)
        var = jnp.mean((h - mean) * (h - mean), -1, keepdims=True)
        return (h - mean) * lax.rsqrt(var + 1e-5) * g + b

    def w8(x, g):
        n = x * lax.rsqrt(jnp.mean(x * x, -1, keepdims=True) + 1e-6) * g
        scale = jnp.max(jnp.abs(n), -1) / 127
        q = jnp.clip(jnp.round(n / scale[:, None]), -127, 127).astype(jnp.int8)
        return q, scale

    def inorm(x, g, b):
        mean = jnp.mean(x, (2, 3), keepdims=True)
        var = jnp.mean(x * x, (2, 3), keepdims=True) - mean * mean
        return ((x - mean) * lax.rsqrt(var + 1e-5) * g[:, None, None] +
                b[:, None, None])

    def ln2d(x, g):
        c = x - jnp.mean(x, (2, 3), keepdims=True)
        v = jnp.mean(c * c, (2, 3), keepdims=True)
        return c * lax.rsqrt(v + 1e-5) * g

    def rowmaxr(x):
        m = jnp.max(x, -1)
        return m, jnp.exp(x - m[:, None])

    def wnorm(x):
        return x / jnp.sum(x * x)

    def bntrain(x, g, b):
        mean = jnp.mean(x, (0, 2, 3))
        c = x - mean[None, :, None, None]
        var = jnp.mean(c * c, (0, 2, 3))
        y = (c * lax.rsqrt(var + 1e-5)[None, :, None, None] *
             g[None, :, None, None] + b[None, :, None, None])
        return y, mean, var

    def gnnhwc(x, g, b):
        n, h, w, ch = x.shape
        xe = x.reshape(n, h, w, 32, ch // 32)
        mean = jnp.mean(xe, (1, 2, 4), keepdims=True)
        c = xe - mean
        var = jnp.mean(c * c, (1, 2, 4), keepdims=True)
        return (c * lax.rsqrt(var + 1e-5)).reshape(n, h, w, ch) * g + b

    def l2n1(x):
        n = jnp.sqrt(jnp.sum(x * x, 1, keepdims=True))
        return x / jnp.maximum(n, 1e-12)

    def welford(x):
        return jnp.var(x, -1, ddof=1), jnp.mean(x, -1)

    def maskmean(x, m):
        return jnp.sum(jnp.where(m, x, 0), -1) / jnp.sum(m, -1).astype(
            jnp.float32)

    def attnout(o, b):
        return (jnp.transpose(o, (0, 2, 1, 3)).reshape(o.shape[0], o.shape[2],
                                                       -1) + b)

    def gn(x):
        h = x.astype(jnp.float32)
        mean = jnp.mean(h, (2, 3), keepdims=True)
        var = jnp.mean(h * h, (2, 3), keepdims=True) - mean * mean
        return (h - mean) * lax.rsqrt(var + 1e-5)

    def lnbwd(dy, x, gamma, mean, rstd):
        f32 = jnp.float32
        g = dy.astype(f32) * gamma.astype(f32)
        xhat = (x.astype(f32) - mean[:, None]) * rstd[:, None]
        n = x.shape[-1]
        dx = rstd[:, None] * (g - (jnp.sum(g, -1, keepdims=True) +
                                   xhat * jnp.sum(g * xhat, -1,
                                                  keepdims=True)) / n)
        return dx.astype(jnp.bfloat16)

    def lnbwdf(dy, x, gamma, mean, rstd):
        f32 = jnp.float32
        xhat = (x.astype(f32) - mean[:, None]) * rstd[:, None]
        return (lnbwd(dy, x, gamma, mean, rstd),
                jnp.sum(dy.astype(f32) * xhat, 0), jnp.sum(dy.astype(f32), 0))

    def rmsbwd(dy, x, gamma, rstd):
        f32 = jnp.float32
        g = dy.astype(f32) * gamma.astype(f32)
        xf = x.astype(f32)
        n = x.shape[-1]
        s = jnp.sum(g * xf, -1, keepdims=True)
        dx = rstd * g - xf * rstd * rstd * rstd * s / n
        return dx.astype(jnp.bfloat16), jnp.sum(dy.astype(f32) * xf * rstd, 0)

    def midmean(x):
        return jnp.mean(x, 1)

    def bnstats(x):
        return jnp.mean(x, (0, 2, 3)), jnp.var(x, (0, 2, 3))

    def colwide(x):
        return jnp.sum(x, 0)

    def colnarrow(x):
        return jnp.sum(x.astype(jnp.float32), 0)

    def colstats(x):
        xf = x.astype(jnp.float32)
        return jnp.mean(xf, 0), jnp.var(xf, 0)

    def colstatsn(x):
        xf = x.astype(jnp.float32)
        return jnp.sum(xf, 0), jnp.sum(xf * xf, 0)

    def sm0(x):
        return nn.softmax(x, axis=0)

    def sm1(x):
        return nn.softmax(x, axis=1)

    def attnmask(x, mask):
        return nn.softmax(x * 0.125 + mask, axis=-1)

    def attnmaskbf(x, mask):
        return nn.softmax(x.astype(jnp.float32) * 0.0883883461 + mask,
                          axis=-1).astype(jnp.bfloat16)

    def posadd(x, pos):
        return x + pos

    def lse(x):
        return jax.nn.logsumexp(x.astype(jnp.float32), -1)

    def lsef32(x):
        return jax.nn.logsumexp(x, -1, keepdims=True)

    def argmax(x):
        return jnp.argmax(x, -1)

    def ln0(x):
        h = x.astype(jnp.float32)
        m = jnp.mean(h, 0, keepdims=True)
        v = jnp.mean((h - m) * (h - m), 0, keepdims=True)
        return ((h - m) * lax.rsqrt(v + 1e-5)).astype(jnp.bfloat16)

    def biasgelu(x, b):
        return nn.gelu(x.astype(jnp.float32) + b.astype(jnp.float32),
                       approximate=True).astype(jnp.bfloat16)

    def dgeludb(dy, x):
        f32 = jnp.float32
        xf = x.astype(f32)
        k, c = 0.7978845608028654, 0.044715
        t = jnp.tanh(k * (xf + c * xf * xf * xf))
        d = 0.5 * (1 + t) + 0.5 * xf * (1 - t * t) * k * (1 + 3 * c * xf * xf)
        dx = (dy.astype(f32) * d).astype(jnp.bfloat16)
        return dx, jnp.sum(dx.astype(f32), 0)

    def rmsdec(x, g):
        h = x.astype(jnp.float32)
        return (h * lax.rsqrt(jnp.mean(h * h, -1, keepdims=True) + 1e-6) *
                g.astype(jnp.float32)).astype(jnp.bfloat16)

    def addrmsdec(x, r, g):
        h = x + r
        return h, rmsdec(h, g)

    def gemmarms(x, w):
        h = x.astype(jnp.float32)
        return (h * lax.rsqrt(jnp.mean(h * h, -1, keepdims=True) + 1e-6) *
                (1.0 + w.astype(jnp.float32))).astype(jnp.bfloat16)

    def decatt(q, k, v):
        s = jnp.einsum("hd,htd->ht", q, k) * (k.shape[-1] ** -0.5)
        return jnp.einsum("ht,htd->hd", nn.softmax(s, -1), v)

    def decattbf(q, k, v):
        s = jnp.matmul(q, jnp.swapaxes(k, -1, -2),
                       preferred_element_type=jnp.float32)
        p = nn.softmax(s * (k.shape[-1] ** -0.5), -1).astype(jnp.bfloat16)
        return jnp.matmul(p, v)

    def vecmat(x, w):
        return jnp.matmul(x, w, preferred_element_type=jnp.float32).astype(
            jnp.bfloat16)

    def ropef16(x, c, s):
        x0 = x[..., 0].astype(jnp.float32)
        x1 = x[..., 1].astype(jnp.float32)
        c = c[:, None, :].astype(jnp.float32)
        s = s[:, None, :].astype(jnp.float32)
        return jnp.stack([x0 * c - x1 * s, x0 * s + x1 * c],
                         -1).astype(jnp.float16)

    def cmul(a, b):
        ar, ai, br, bi = a[..., 0], a[..., 1], b[..., 0], b[..., 1]
        return jnp.stack([ar * br - ai * bi, ar * bi + ai * br], -1)

    def ropeneox(x, c, s):
        h = x.shape[-1] // 2
        rot = jnp.concatenate((-x[..., h:], x[..., :h]), -1)
        return x * c[:, None, :] + rot * s[:, None, :]

    def qkvnorm(qkv, wq, wk):
        q, k, v = qkv[:, 0], qkv[:, 1], qkv[:, 2]

        def rms(t, w):
            f = t.astype(jnp.float32)
            return (f * lax.rsqrt(jnp.mean(f * f, -1, keepdims=True) + 1e-6) *
                    w.astype(jnp.float32)).astype(jnp.bfloat16)
        return rms(q, wq), rms(k, wk), v

    def dequant4(w, scale):
        lo = jnp.right_shift(jnp.left_shift(w, 4), 4)
        hi = jnp.right_shift(w, 4)
        q = jnp.stack((lo, hi), -1).reshape(*w.shape[:-1], -1)
        y = q.astype(jnp.float16) * scale[..., None]
        return y.reshape(w.shape[0], -1)

    def dequantu4(w, scale, zp):
        wi = w.astype(jnp.int32) & 0xFF
        q = jnp.stack((wi & 15, wi >> 4), -1).reshape(*w.shape[:-1], -1)
        y = ((q.astype(jnp.float32) - zp.astype(jnp.float32)[..., None]) *
             scale.astype(jnp.float32)[..., None])
        return y.astype(jnp.bfloat16).reshape(w.shape[0], -1)

    def dequant4l(w, scale):
        return dequant4(w, scale)

    def rope(x, c, s):
        x0 = x[..., 0].astype(jnp.float32)
        x1 = x[..., 1].astype(jnp.float32)
        c, s = c[:, None, :], s[:, None, :]
        return jnp.stack([x0 * c - x1 * s, x0 * s + x1 * c],
                         -1).astype(jnp.bfloat16)

    return {f.__name__: f for f in
            (dequant4, dequant4l, dequantu4, vecmat, rope, ropef16, cmul, ropeneox, qkvnorm, w1, w2, w3, w4, w5, tfused, w6, w7, aos16, lnf16, w8, gn, lnbwd,
             lnbwdf, rmsbwd, midmean, inorm, ln2d, rowmaxr, wnorm, bntrain, gnnhwc, l2n1, welford, attnout, maskmean, bnstats, colwide, colnarrow, colstats,
             colstatsn, sm0, sm1,
             attnmask, attnmaskbf, posadd, lse, lsef32, argmax, ln0, biasgelu,
             rmsdec, gemmarms,
             addrmsdec, decatt, decattbf, dgeludb)}


def _import_jax():
    """Imports JAX (only here) and checks it has a GPU backend."""
    # Allocate on demand instead of 75% of the GPU up front: torch shares it.
    os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")
    import jax
    jax.devices("gpu")  # raises without a GPU backend
    return jax


def _nbytes(t):
    return t.numel() * t.element_size()


def _as_tuple(out):
    return out if isinstance(out, tuple) else (out,)


def _summary(samples, warmup, method):
    return {
        "median_ms": statistics.median(samples),
        "min_ms": min(samples),
        "max_ms": max(samples),
        "iterations": len(samples),
        "warmup": warmup,
        "method": method,
    }


def _time(torch, fn, args, warmup, iters):
    """Median and spread of `iters` event-timed calls after `warmup` calls."""
    for _ in range(warmup):
        fn(*args)
    torch.cuda.synchronize()
    start = torch.cuda.Event(enable_timing=True)
    end = torch.cuda.Event(enable_timing=True)
    samples = []
    for _ in range(iters):
        start.record()
        fn(*args)
        end.record()
        end.synchronize()
        samples.append(start.elapsed_time(end))
    return _summary(samples, warmup, "CUDA events around each call, median")


def _time_graph(torch, fn, args, warmup, iters):
    """Kernel time under CUDA-graph replay, as memopt-run's graph timing:
    calls captured into one torch.cuda.CUDAGraph (enough that a replay
    takes about a millisecond, 4 to 200), replayed `iters` times with CUDA
    events around each replay; the median over the calls per graph."""
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        for _ in range(max(warmup, 3)):  # warm-up off the capture
            fn(*args)
    torch.cuda.current_stream().wait_stream(s)
    torch.cuda.synchronize()
    t = _time(torch, fn, args, 1, 5)["median_ms"]
    runs = max(4, min(200, int(-(-1.0 // max(t, 1e-6)))))
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        for _ in range(runs):
            fn(*args)
    for _ in range(2):
        g.replay()
    torch.cuda.synchronize()
    start = torch.cuda.Event(enable_timing=True)
    end = torch.cuda.Event(enable_timing=True)
    samples = []
    for _ in range(min(iters, 10)):
        start.record()
        g.replay()
        end.record()
        end.synchronize()
        samples.append(start.elapsed_time(end) / runs)
    del g
    return {"median_ms": statistics.median(samples), "min_ms": min(samples),
            "runs_per_graph": runs,
            "method": "CUDA events around replays of a CUDA graph of "
                      "`runs_per_graph` calls, per call, median"}


def _time_jax(jax, fn, args, warmup, iters):
    """Like _time for a jitted JAX function, with a wall clock (includes the
    dispatch and the wait), plus pipelined_ms: the mean of `iters` calls
    back to back, waited for once."""
    for _ in range(warmup):
        jax.block_until_ready(fn(*args))
    samples = []
    for _ in range(iters):
        t0 = time.perf_counter()
        jax.block_until_ready(fn(*args))
        samples.append((time.perf_counter() - t0) * 1e3)
    t = _summary(samples, warmup, "wall clock around jit call + "
                 "block_until_ready, median")
    t0 = time.perf_counter()
    for _ in range(iters):
        out = fn(*args)
    jax.block_until_ready(out)
    t["pipelined_ms"] = (time.perf_counter() - t0) * 1e3 / iters
    return t


def _to_jax(jax, torch, x):
    """A torch tensor on the device as a JAX array (numpy has no bf16)."""
    if x.dtype == torch.bfloat16:
        return jax.device_put(x.float().cpu().numpy()).astype(
            jax.numpy.bfloat16)
    return jax.device_put(x.cpu().numpy())


def _matches(torch, got, ref):
    """Outputs agree with eager's: floats to 1e-3 (16-bit ones to 1e-2),
    integers (w8's) to 1."""
    def tol(t):
        return 1e-2 if t.element_size() == 2 else 1e-3
    return all(
        torch.allclose(a.float(), b.float(), atol=tol(b), rtol=tol(b))
        if a.is_floating_point()
        else bool(((a.int() - b.int()).abs() <= 1).all())
        for a, b in zip(_as_tuple(got), _as_tuple(ref)))


def _run_mode(torch, jax, mode, fn, inputs, warmup, iters):
    """Times fn (for jax, its JAX twin) in one mode; compile and jax are
    compiled and checked against eager outside the timed region."""
    def with_graph(t, f):
        try:
            t["graph_replay"] = _time_graph(torch, f, inputs, warmup, iters)
        except Exception as e:  # e.g. an op that cannot be captured
            t["graph_replay"] = {"error": "%s: %s" % (type(e).__name__, e)}
        return t

    if mode == "eager":
        return with_graph(_time(torch, fn, inputs, warmup, iters), fn)
    if mode == "compile":
        f = torch.compile(fn)
        ok = _matches(torch, f(*inputs), fn(*inputs))
        t = with_graph(_time(torch, f, inputs, warmup, iters), f)
    else:
        import numpy as np  # a JAX dependency
        jinputs = [_to_jax(jax, torch, x) for x in inputs]
        if hasattr(fn, "_sweep_name"):
            from sweep import sweep_jax
            f = jax.jit(sweep_jax(jax, fn._sweep_name))
        else:
            f = jax.jit(_jax_workloads(jax)[fn.__name__])
        def back(o):  # numpy has no bf16: through f32
            if o.dtype == jax.numpy.bfloat16:
                return torch.from_numpy(np.array(o.astype(np.float32))).cuda().bfloat16()
            return torch.from_numpy(np.array(o)).cuda()
        got = tuple(back(o) for o in _as_tuple(f(*jinputs)))
        ok = _matches(torch, got, fn(*inputs))
        del got
        t = _time_jax(jax, f, jinputs, warmup, iters)
    t["matches_eager"] = ok
    return t


def _copy_bandwidth(torch, warmup, iters):
    n = GIB // 4
    src = torch.empty(n, device="cuda", dtype=torch.float32).fill_(1.0)
    dst = torch.empty_like(src)
    t = _time(torch, lambda: dst.copy_(src), (), warmup, iters)
    t["buffer_bytes"] = GIB
    t["method"] = "torch copy_ of a 1 GiB tensor, bytes = read + written"
    t["gbps"] = 2 * GIB / (t["median_ms"] * 1e-3) / 1e9
    del src, dst
    torch.cuda.empty_cache()
    return t


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--only", default="",
                    help="comma-separated workloads (w1..w8); default all")
    ap.add_argument("--json", default="", help="write results here")
    ap.add_argument("--warmup", type=int, default=5)
    ap.add_argument("--iters", type=int, default=30)
    ap.add_argument("--modes", default="eager,compile,jax",
                    help="comma-separated, of eager, compile, jax")
    args = ap.parse_args()
    if args.iters < 20:
        ap.error("--iters must be >= 20")
    modes = [m for m in args.modes.split(",") if m]
    for m in modes:
        if m not in ("eager", "compile", "jax"):
            ap.error("unknown mode %r" % m)

    result = {
        "tool": "peers.py",
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(),
        "workloads": {},
    }

    def write():
        if args.json:
            with open(args.json, "w") as f:
                json.dump(result, f, indent=2)

    try:
        import torch  # imported late so --help works without torch
    except ImportError as e:
        result["status"] = "error"
        result["error"] = "PyTorch is not importable: %s" % e
        write()
        print("peers.py: error: %s" % result["error"], file=sys.stderr)
        return 3
    result["torch_version"] = torch.__version__

    if not torch.cuda.is_available():
        result["status"] = "error"
        result["error"] = "no CUDA device visible to PyTorch"
        write()
        print("peers.py: error: no CUDA device visible to PyTorch",
              file=sys.stderr)
        return 3

    try:
        import triton
        result["triton_version"] = triton.__version__
    except Exception:  # triton is optional for eager
        result["triton_version"] = None
    result["device"] = torch.cuda.get_device_name(0)
    result["cuda_runtime"] = torch.version.cuda
    torch.backends.cuda.matmul.allow_tf32 = False

    table = _workloads(torch)
    jax = jax_error = None
    if "jax" in modes:
        try:
            jax = _import_jax()
            result["jax_version"] = jax.__version__
            result["jax_device"] = jax.devices("gpu")[0].device_kind
        except Exception as e:
            jax_error = "JAX with a GPU backend is not available: %s: %s" % (
                type(e).__name__, e)
            result["jax_error"] = jax_error
            print("peers: %s" % jax_error, file=sys.stderr)
    wanted = [w.strip() for w in args.only.split(",") if w.strip()] or \
        sorted(table)
    # The row sweep's programs (bench/sweep.py) by name.
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from sweep import sweep_workload
    for w in wanted:
        if w not in table and sweep_workload(torch, w):
            table[w] = sweep_workload(torch, w)
    unknown = [w for w in wanted if w not in table]
    for w in unknown:
        print("peers.py: no peer definition for %r; skipped" % w,
              file=sys.stderr)
    wanted = [w for w in wanted if w in table]

    result["copy_bandwidth"] = _copy_bandwidth(torch, args.warmup,
                                               max(args.iters, 20))
    copy_gbps = result["copy_bandwidth"]["gbps"]
    print("peers: %s, torch %s, jax %s, copy bandwidth %.1f GB/s" %
          (result["device"], torch.__version__,
           result.get("jax_version", "-"), copy_gbps))

    for name in wanted:
        desc, make_inputs, fn = table[name]
        entry = {"description": desc}
        result["workloads"][name] = entry
        try:
            inputs = make_inputs()
            outs = _as_tuple(fn(*inputs))
            min_bytes = sum(_nbytes(t) for t in inputs) + \
                sum(_nbytes(t) for t in outs)
            entry["min_bytes"] = min_bytes
            entry["input_shapes"] = [list(t.shape) for t in inputs]
            entry["output_shapes"] = [list(t.shape) for t in outs]
            entry["output_dtypes"] = [str(t.dtype) for t in outs]
            del outs
        except Exception as e:
            entry["error"] = "setup: %s" % e
            print("peers: %s setup failed: %s" % (name, e), file=sys.stderr)
            continue
        for mode in modes:
            if mode == "jax" and jax_error:
                entry[mode] = {"error": jax_error}
                continue
            try:
                t = _run_mode(torch, jax, mode, fn, inputs, args.warmup,
                              args.iters)
                t["gbps"] = min_bytes / (t["median_ms"] * 1e-3) / 1e9
                t["fraction_of_copy"] = t["gbps"] / copy_gbps
                entry[mode] = t
                pipe = " (pipelined %.4f ms)" % t["pipelined_ms"] \
                    if "pipelined_ms" in t else ""
                if "median_ms" in t.get("graph_replay", {}):
                    pipe += " (graph replay %.4f ms)" % \
                        t["graph_replay"]["median_ms"]
                print("peers: %-3s %-7s %9.4f ms %8.1f GB/s %6.1f%% of copy%s"
                      % (name, mode, t["median_ms"], t["gbps"],
                         100 * t["fraction_of_copy"], pipe))
            except Exception as e:
                entry[mode] = {"error": "%s: %s" % (type(e).__name__, e)}
                print("peers: %s %s failed: %s" % (name, mode, e),
                      file=sys.stderr)
                traceback.print_exc(file=sys.stderr)
        del inputs
        torch.cuda.empty_cache()
        if hasattr(torch, "_dynamo"):
            torch._dynamo.reset()

    result["status"] = "ok"
    write()
    return 0


if __name__ == "__main__":
    sys.exit(main())
