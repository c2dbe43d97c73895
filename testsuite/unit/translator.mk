## testsuite/unit/translator.mk -- Check unit tests for the translator.
