# An unknown policy: a usage error with the closest names
policies examples/policy_diamond.simd --policy minpcc,lee
