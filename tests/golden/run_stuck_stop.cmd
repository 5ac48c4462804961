run examples/stuck_stop.simd
