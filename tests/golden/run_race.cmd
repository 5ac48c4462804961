run examples/store_race.simd
