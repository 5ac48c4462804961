# the front end and operand delivery: control hazards after the loop's branch, register-bank conflicts with one read port, two collector units per scheduler, dual issue of an add beside a shared load
sm tests/golden/sm_front_end.simd --set -gpgpu_reg_file_port_throughput=1 --set -gpgpu_operand_collector_num_units_gen=8 --set -gpgpu_max_insn_issue_per_warp=2
