!!ARBvp1.0
MOV result.position, vertex.position;      ~> error 1: missing END
