## testsuite/unit/debuginfo.mk -- Check unit tests for the debuginfo.
