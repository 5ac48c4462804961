# cfg reads standard input; an error names <stdin>
cfg -
