"""PS3 RSX vertex and fragment programs (work in progress: containers)."""
