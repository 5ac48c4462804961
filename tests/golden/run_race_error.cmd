run examples/store_race.simd --races error --quiet
