run examples/nested_else.simd --strict-push --trace --quiet
