"""PowerVR SGX USSE shader programs (SGX543/SGX544, the VEC34 family): the description of
every form (:mod:`.encoding`, :mod:`.description`). Work in progress for issue 14; the public
``ISA`` object is not registered yet.
"""
