# the program from standard input: "-", named <stdin>; a UTF-8 byte-order mark is skipped
check -
