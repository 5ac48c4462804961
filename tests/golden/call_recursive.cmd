# calls: a cycle of the call graph is an error naming it (musimd-lang(7), Functions)
check tests/golden/call_recursive.simd
