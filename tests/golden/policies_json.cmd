# JSON: one object per run, with the histograms and the memory classes (seed 000 T12)
policies examples/policy_memory.simd --policy minpc,rr-thread --json
