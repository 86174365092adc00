// Tests arrive with the module (issue #3).
