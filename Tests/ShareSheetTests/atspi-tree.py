# Prints the accessible tree of the running share-sheet as the test reads
# it, one node a line: role, name, "sensitive" or "insensitive", and
# "focused" for the focused node, tab separated. Reached through the
# accessibility bus of the session bus in DBUS_SESSION_BUS_ADDRESS.
import sys
import pyatspi
from gi.repository import Atspi

# A sheet that stopped answering fails the test at once rather than after 25 s a node.
Atspi.set_timeout(3000, 3000)


def walk(node, depth=0):
    if node is None or depth > 40:
        return
    try:
        states = node.getState()
        sensitive = "sensitive" if states.contains(pyatspi.STATE_SENSITIVE) else "insensitive"
        focused = "focused" if states.contains(pyatspi.STATE_FOCUSED) else ""
        name = (node.name or "").replace("\t", " ").replace("\n", " ")
        print("\t".join([node.getRoleName(), name, sensitive, focused]))
        for index in range(node.childCount):
            walk(node.getChildAtIndex(index), depth + 1)
    except Exception as error:  # a node that went away while walking
        print("gone\t%s\t\t" % error)


desktop = pyatspi.Registry.getDesktop(0)
for index in range(desktop.childCount):
    application = desktop.getChildAtIndex(index)
    if application is not None and application.name == sys.argv[1]:
        walk(application)
