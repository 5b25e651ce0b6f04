!!ARBvp1.0
# Labels are resolved once every statement has read cleanly, so this error comes on its own.
MOV R0, vertex.position;
BRA nowhere;                               ~> error 5: undefined symbol 'nowhere'
END
