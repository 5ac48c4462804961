# 16 threads as CTAs of 4, two resident at once: later warps wait not resident
sm examples/if_else.simd --threads 16 --warpsize 4 --set -musimd_cta_threads=4 --set -gpgpu_shader_cta=2
