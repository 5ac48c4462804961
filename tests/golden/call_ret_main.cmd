# calls: a ret reachable without a call is a static error
check tests/golden/call_ret_main.simd
