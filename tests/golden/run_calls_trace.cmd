# calls: a trace shows the return stacks at CL, RT and RS (a divergent return under Min-PC)
run examples/policy_both_call.simd --model its:minpc --trace --quiet
