import Net
import Core

print(Client())
