# follow an --atomic-order any counterexample (W.K, K the lanes' order), as musimd explore prints it; back replays the order; a lane order the step does not have
repl --echo --model sync --threads 2 --warpsize 2 --schedule 0.1,0,0,0,0,0,0/0,0 examples/leader_flag.simd
