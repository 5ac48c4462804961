# a kernel-wide barrier with CTAs that cannot all be resident: the commit
# watchdog names the CTAs that wait for room
sm examples/two_warps.simd --set -musimd_cta_threads=4 --set -gpgpu_shader_cta=1
