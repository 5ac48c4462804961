help emit-promela
