# syncs placed: the missing one at the reconvergence point
syncs examples/stuck_stop.simd
