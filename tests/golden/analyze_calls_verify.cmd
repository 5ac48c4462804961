# calls: analyze --verify runs the inlined program, verdicts per call site
analyze tests/golden/analyze_calls_verify.simd --verify=2 --verify-model ipdom,tf
