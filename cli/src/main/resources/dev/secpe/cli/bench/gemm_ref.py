#!/usr/bin/env python3
"""numpy reference for the clustering kernel benchmark (secpe bench kernel).

Reads A (m x d) and B (n x d) as raw little-endian float32 files written by the Java harness,
then times, on exactly the same data:
  * gemm:  C = A @ B.T  (float32, whole matrix, numpy's BLAS), best of --reps;
  * top1:  for each row of A the index of the largest A.b_j (cosine on pre-normalised rows) or
           smallest |a-b|^2 (l2, via |b|^2 - 2 a.b), in row blocks: the blocked GEMM + argmax
           the Java kernel does (without its exact tie re-check). Timed at --block rows (the
           Java kernel's block) and at 512, 1024, 2048 and 4096 rows; top1_* is numpy's best.
Prints one JSON object on stdout. Usage:
  gemm_ref.py A.bin B.bin m n d --metric cosine|l2 --reps 3 --block 2048 [--indices out.bin]
With --serve it instead loads the data once, prints one JSON line ({"ready": ...}) and then
answers commands on stdin, one JSON line each, so that the caller can pair every one of its own
repetitions with one of numpy's under the same machine load:
  gemm   -> {"seconds": ...}                       one GEMM
  top1   -> {"seconds": best, "block": b, ...}     one blocked top-1 pass per block size
  quit
"""
import argparse
import json
import sys
import time

import numpy as np


def main():
    p = argparse.ArgumentParser()
    p.add_argument("a")
    p.add_argument("b")
    p.add_argument("m", type=int)
    p.add_argument("n", type=int)
    p.add_argument("d", type=int)
    p.add_argument("--metric", default="cosine", choices=["cosine", "l2"])
    p.add_argument("--reps", type=int, default=3)
    p.add_argument("--block", type=int, default=2048)
    p.add_argument("--indices", default=None)
    p.add_argument("--serve", action="store_true")
    args = p.parse_args()
    a = np.fromfile(args.a, dtype="<f4").reshape(args.m, args.d)
    b = np.fromfile(args.b, dtype="<f4").reshape(args.n, args.d)
    flops = 2.0 * args.m * args.n * args.d
    if args.serve:
        serve(args, a, b)
        return

    best_gemm = float("inf")
    for _ in range(args.reps):
        t = time.perf_counter()
        c = a @ b.T
        best_gemm = min(best_gemm, time.perf_counter() - t)
        del c

    bb = np.einsum("ij,ij->i", b, b) if args.metric == "l2" else None
    idx = np.empty(args.m, dtype=np.int32)
    blocks = block_sizes(args)
    by_block = {blk: float("inf") for blk in blocks}
    for _ in range(args.reps):
        for blk in blocks:  # interleaved, so that every size sees the same machine load
            by_block[blk] = min(by_block[blk], top1(a, b, bb, blk, idx))
    best_block = min(blocks, key=lambda blk: by_block[blk])
    best_top1 = by_block[best_block]
    if args.indices:
        idx.astype("<i4").tofile(args.indices)

    json.dump({
        "numpy_version": np.__version__,
        "blas": blas_config(),
        "gemm_seconds": best_gemm,
        "gemm_gflops": flops / best_gemm / 1e9,
        "top1_seconds": best_top1,
        "top1_gflops": flops / best_top1 / 1e9,
        "top1_block": best_block,
        "top1_gflops_by_block": {str(blk): flops / by_block[blk] / 1e9 for blk in blocks},
        "m": args.m, "n": args.n, "d": args.d, "reps": args.reps, "block": args.block,
    }, sys.stdout)
    print()


def block_sizes(args):
    return sorted({min(args.m, blk) for blk in (args.block, 512, 1024, 2048, 4096)})


def top1(a, b, bb, blk, idx):
    """One blocked GEMM + arg-max pass over A in blocks of blk rows; returns its seconds."""
    t = time.perf_counter()
    for s in range(0, a.shape[0], blk):
        c = a[s:s + blk] @ b.T
        if bb is None:
            idx[s:s + blk] = np.argmax(c, axis=1)
        else:
            c *= -2.0
            c += bb
            idx[s:s + blk] = np.argmin(c, axis=1)
    return time.perf_counter() - t


def serve(args, a, b):
    bb = np.einsum("ij,ij->i", b, b) if args.metric == "l2" else None
    idx = np.empty(args.m, dtype=np.int32)
    blocks = block_sizes(args)
    print(json.dumps({"ready": True, "numpy_version": np.__version__, "blas": blas_config()}),
          flush=True)
    for line in sys.stdin:
        cmd = line.strip()
        if cmd == "gemm":
            t = time.perf_counter()
            c = a @ b.T
            out = {"seconds": time.perf_counter() - t}
            del c
        elif cmd == "top1":
            by_block = {blk: top1(a, b, bb, blk, idx) for blk in blocks}
            best = min(blocks, key=lambda blk: by_block[blk])
            if args.indices:
                idx.astype("<i4").tofile(args.indices)
            out = {"seconds": by_block[best], "block": best,
                   "by_block": {str(blk): by_block[blk] for blk in blocks}}
        elif cmd == "quit":
            return
        else:
            out = {"error": "unknown command " + cmd}
        print(json.dumps(out), flush=True)


def blas_config():
    cfg = {}
    try:
        cfg = {k: str(v) for k, v in np.show_config(mode="dicts")["Build Dependencies"]["blas"].items()}
    except Exception:  # noqa: BLE001 - informational only
        pass
    return cfg


if __name__ == "__main__":
    main()
