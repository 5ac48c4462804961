# run reads standard input too
run - --quiet
