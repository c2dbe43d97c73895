## testsuite/unit/runtime.mk -- Check unit tests for the runtime.
