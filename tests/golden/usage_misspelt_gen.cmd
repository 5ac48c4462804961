gen --sed 3
