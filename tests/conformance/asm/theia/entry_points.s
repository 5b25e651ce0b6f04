// Entry-table labels name the routines of spec/theia.md §5; the table is checked once the code
// has assembled, so these errors come on their own.
ENTRYPOINT_ADRR_FOO:                        ~> error 1: unknown routine 'FOO'
RETURN RT_TRUE
ENTRYPOINT_ADRR_PSU = 0x12345               ~> error 1: is not a 16-bit code address
