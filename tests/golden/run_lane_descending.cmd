run examples/atominc.simd --lane-order descending
