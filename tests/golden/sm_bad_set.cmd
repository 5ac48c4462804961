# a misspelt GPGPU-Sim option in --set: the closest name
sm examples/if_else.simd --set -gpgpu_schedular=gto
