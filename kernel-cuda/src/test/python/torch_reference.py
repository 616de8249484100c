"""The PyTorch half of bin/device-check (issue 35): on the data the Java half wrote (a.f32,
b.f32: unit rows, 20000 x 5000 x 384), PyTorch's float32 mm + argmax on the same GPU in the same
call, best of 5, with TF32 off (the precision the kernel's exact re-check assumes) and, for
reference, on; then a Yelp-scale round (1.9 M x 35 k x 384, random unit rows of the same shape,
blocks of 65,536 rows: mm, argmax, bincount). Merges java.json with these figures and the ratios
into device-check.json:

  kernel_ratio_vs_torch  PyTorch's mm + argmax (float32, data already on the GPU) / ours (>= 1.0:
                         ours as fast or faster; ours includes copying A and B to the GPU and the
                         exact re-check on the CPU)
  yelp_ratio_vs_torch    the same for the Yelp-scale round

Usage: python3 torch_reference.py OUT_DIR [--dry-run]
"""
import json
import os
import subprocess
import sys
import time


def main():
    out = sys.argv[1]
    dry = "--dry-run" in sys.argv
    with open(os.path.join(out, "java.json")) as f:
        result = json.load(f)
    try:
        result["commit"] = subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True,
                                          text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        result["commit"] = os.environ.get("SECPE_COMMIT", "unknown")
    try:
        import numpy as np
        import torch
    except ImportError as e:
        result["torch_error"] = f"no PyTorch here: {e}"
        return finish(out, result)
    result["torch"] = torch.__version__
    if not torch.cuda.is_available():
        result["torch_error"] = "PyTorch sees no CUDA device"
        return finish(out, result)
    if "kernel_shape" not in result:
        result["torch_error"] = "the Java half measured nothing (no CUDA device for it)"
        return finish(out, result)
    dev = torch.device("cuda")
    result["torch_device"] = torch.cuda.get_device_name(0)
    n, m, d = [int(x) for x in result["kernel_shape"].split(" x ")]
    a = torch.from_numpy(np.fromfile(os.path.join(out, "a.f32"), dtype="<f4").reshape(n, d))
    b = torch.from_numpy(np.fromfile(os.path.join(out, "b.f32"), dtype="<f4").reshape(m, d))
    ours = np.fromfile(os.path.join(out, "winners.i32"), dtype="<i4")

    def timed(fn, reps=5):
        best = float("inf")
        res = None
        for _ in range(reps):
            torch.cuda.synchronize()
            t = time.perf_counter()
            res = fn()
            torch.cuda.synchronize()
            best = min(best, time.perf_counter() - t)
        return best, res

    ag, bg = a.to(dev), b.to(dev)
    for tf32 in (False, True):
        torch.backends.cuda.matmul.allow_tf32 = tf32
        timed(lambda: torch.argmax(ag @ bg.T, dim=1), reps=2)  # warm-up
        secs, idx = timed(lambda: torch.argmax(ag @ bg.T, dim=1))
        key = "tf32" if tf32 else "float32"
        result[f"torch_mm_argmax_{key}_seconds"] = secs
        result[f"torch_{key}_winners_differing_from_ours"] = int(
            (idx.cpu().numpy() != ours).sum())
    torch.backends.cuda.matmul.allow_tf32 = False
    secs, _ = timed(lambda: torch.argmax(a.to(dev) @ b.to(dev).T, dim=1))
    result["torch_mm_argmax_float32_with_copies_seconds"] = secs
    if result.get("kernel_seconds"):
        result["kernel_ratio_vs_torch"] = result["torch_mm_argmax_float32_seconds"] / result["kernel_seconds"]

    yn, ym, _ = [int(x) for x in result["yelp_shape"].split(" x ")]
    g = torch.Generator(device=dev).manual_seed(3)
    ya = torch.randn(yn, d, device=dev, generator=g)
    ya /= ya.norm(dim=1, keepdim=True)
    yb = torch.randn(ym, d, device=dev, generator=g)
    yb /= yb.norm(dim=1, keepdim=True)
    block = 65536 if not dry else 4096

    def round_():
        counts = torch.zeros(ym, dtype=torch.int64, device=dev)
        for s in range(0, yn, block):
            counts += torch.bincount(torch.argmax(ya[s:s + block] @ yb.T, dim=1), minlength=ym)
        return counts

    secs, _ = timed(round_, reps=2)
    result["torch_yelp_round_seconds"] = secs
    if result.get("yelp_round_seconds"):
        result["yelp_ratio_vs_torch"] = secs / result["yelp_round_seconds"]
    return finish(out, result)


def finish(out, result):
    with open(os.path.join(out, "device-check.json"), "w") as f:
        json.dump(result, f, indent=2, sort_keys=False)
        f.write("\n")
    for k, v in result.items():
        print(f"device-check: {k} = {v}")


if __name__ == "__main__":
    main()
