// ShareInboxInterface: the boundary is declared (Package.swift) so that layout and
// arch-check hold from the start; its protocols arrive with the issue that
// builds the module behind it (see README.md, "Status").
