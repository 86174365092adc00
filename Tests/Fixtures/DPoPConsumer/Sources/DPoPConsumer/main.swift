// Uses the DPoP module through its public API only.
import DPoP

print("DPoP consumer built")
