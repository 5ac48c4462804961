deadlock examples/unstructured.simd examples/no_such_file.simd
