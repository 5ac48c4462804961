# the if-else of seed 001 T4 as an AMDGPU kernel
emit-llvm examples/if_else.simd
