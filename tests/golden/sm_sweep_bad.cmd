# --sweep with a misspelt option: the closest name
sm bench/sm_chains.simd --sweep -gpgpu_schedulr=lrr,gto
