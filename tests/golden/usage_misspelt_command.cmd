# a misspelt subcommand: usage error with the closest one
anaylze examples/if_else.simd
