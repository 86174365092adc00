import Core

print(Value())
