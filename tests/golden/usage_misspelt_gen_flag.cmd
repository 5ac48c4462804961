gen --unstructed --seed 3
