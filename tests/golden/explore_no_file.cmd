explore --max-states 10
