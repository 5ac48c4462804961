repl --echo
