# the SM model's JSON: GPGPU-Sim's statistics, per-warp stall causes and the final state (as run --json), on a 2-scheduler GTO configuration
sm examples/if_else.simd --config gtx480 --json
