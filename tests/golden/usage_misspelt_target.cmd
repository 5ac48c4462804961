emit-llvm examples/if_else.simd --target=amd
