# calls: a cycle of the call graph is an error naming it (docs/language.md)
check tests/golden/call_recursive.simd
