# calls: return_stacks in a JSON trace step (CL and RT under ipdom)
run examples/policy_both_call.simd --model ipdom --json --trace
