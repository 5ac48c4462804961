# calls: an unknown function gets a did-you-mean; a ret in main is an error
check tests/golden/call_errors.simd
