# where the sync model gets stuck, and why no sync fits (a short-circuit)
check examples/short_circuit.simd
