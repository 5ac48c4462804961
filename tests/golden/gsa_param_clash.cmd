# a parameter named like a version (x.1, w.undef): the versions skip its name
gsa tests/golden/gsa_param_clash.simd
