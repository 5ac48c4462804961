# musimd help COMMAND is COMMAND's help (not the general one)
help run
