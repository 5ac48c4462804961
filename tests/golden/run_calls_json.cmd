# calls: ret at run time (thread pcs, return stacks in run --json)
run examples/policy_both_call.simd --model its:minpc --json
