# labels longer than 7 characters, visits and block counts of 6 digits
run tests/golden/long_labels.simd --profile
