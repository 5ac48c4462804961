# a malformed L1 string: the option, the field, what it may be
sm tests/golden/sm_memory.simd --set -gpgpu_cache:dl1=S:4:128:64,L:X:m:L:L,A:512:8
