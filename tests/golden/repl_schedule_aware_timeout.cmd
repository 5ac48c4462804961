# follow the explorer's aware schedule with a timeout (warp.1 at step 4: the wait at R gives up first), as musimd explore prints it
repl --echo --model aware --threads 2 --warpsize 2 --aware-timeout any --schedule 0.0,0.0,0.0,0.1,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0/0.0 tests/golden/aware_early_read.simd
