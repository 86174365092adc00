// OutboxTests: the tests of this target live beside this file.
