// Uses the DPoP module through its public API only.
import ShareKitDPoP

print("DPoP consumer built")
