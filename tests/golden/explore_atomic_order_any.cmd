# --atomic-order any: the order of the lanes at an atomic is a choice of the explorer; the election's other order livelocks (examples/leader_flag.simd)
explore examples/leader_flag.simd --atomic-order any
