# calls: the analyses read the program inlined
transform inline examples/policy_both_call.simd
