# misspelt mnemonics, directives and labels: file:line:col, caret, did you mean
check tests/golden/misspelt.simd
