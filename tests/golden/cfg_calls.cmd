# calls: the cfg shows the call edges and the functions
cfg examples/policy_both_call.simd
