# a scheduler the SM model does not have: the names it has, the closest
sm examples/if_else.simd --set -gpgpu_scheduler=gtoo
