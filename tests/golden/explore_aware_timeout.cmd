# the explorer under aware: a timeout is a choice (warp.K, K >= 1) that a fair schedule takes; here it leads to a livelock
explore tests/golden/aware_early_read.simd --model aware --aware-timeout 5
