#!/usr/bin/env bash
# The lent GPU machine's whole run (benchmarks/train_detector_gpu.py): ultralytics from
# the wheels carried in .whl (that machine has torch, OpenCV, NumPy but no
# ultralytics), polars (which ultralytics reads its results.csv with, inside a try)
# replaced by a stub that fails there, then the render and the fine-tune.
#   run: command "bash benchmarks/train_detector_gpu.sh --styles random", carry [".whl", ".cache/gpu-real"]
set -euo pipefail
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
    --target /tmp/site .whl/*.whl
mkdir -p /tmp/stub/polars
printf 'def read_csv(*args, **kwargs):\n    raise RuntimeError("polars is not installed here")\n' \
    > /tmp/stub/polars/__init__.py
export PYTHONPATH="/tmp/site:/tmp/stub:$PWD" PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader || true
python3 benchmarks/train_detector_gpu.py train --out "$OUT" --device 0 --procs 16 --workers 14 \
    --real .cache/gpu-real --hours 0.075 --lr0 0.0008 "$@" 2>&1 | tee "$OUT/log.txt" \
    | grep -v "it/s\|s/it"
