# nested branches reconverging at one point: one join block each, innermost first
syncs examples/nested_else.simd
