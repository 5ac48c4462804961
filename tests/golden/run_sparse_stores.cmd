# memory pages are counted at their cost: the limit stops the run at once (exit 1)
run tests/golden/sparse_stores.simd --max-memory 1 --quiet
