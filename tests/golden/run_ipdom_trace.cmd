run examples/unstructured.simd --model ipdom --trace --profile --quiet
