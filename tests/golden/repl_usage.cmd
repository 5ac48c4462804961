repl --bogus
