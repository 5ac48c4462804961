# --frontiers takes rpo or layout
cfg examples/unstructured.simd --frontiers=topo
