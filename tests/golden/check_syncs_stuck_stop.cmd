# the missing sync of stuck_stop: where it belongs
check examples/stuck_stop.simd
