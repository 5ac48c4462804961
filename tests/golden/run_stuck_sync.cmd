run examples/stuck_sync.simd --quiet
