# Prints the accessible tree of the running share-sheet as the test reads
# it, one node a line: role, name, "sensitive" or "insensitive", "focused"
# for the focused node, the current value of a node that has one (a
# progress bar's fraction, else empty) and the text of an editable text
# (an entry's contents, else empty; never a password field's), tab separated. Reached through the
# accessibility bus of the session bus in DBUS_SESSION_BUS_ADDRESS.
# tools/sheet-screenshots reads the tree with it too.
import sys
import pyatspi
from gi.repository import Atspi

# A sheet that stopped answering fails the test at once rather than after 25 s a node.
Atspi.set_timeout(3000, 3000)


def flat(text):
    return (text or "").replace("\t", " ").replace("\n", " ")


def value(node):
    try:
        return repr(node.queryValue().currentValue)
    except NotImplementedError:
        return ""


# The sheet's password field, by role or by its accessible name (English,
# German). GTK 4 hands an entry's real text to AT-SPI even when the entry
# shows dots, so the tree must never print it: it would be in every test
# transcript and log (the secrets scan of CI found it there).
HIDDEN_NAMES = {"Password", "Passwort"}


def text(node):
    try:
        if not node.getState().contains(pyatspi.STATE_EDITABLE):
            return ""
        if node.getRoleName() == "password text" or node.name in HIDDEN_NAMES:
            return "(hidden)"
        contents = node.queryText()
        return flat(contents.getText(0, contents.characterCount))
    except NotImplementedError:
        return ""


def walk(node, depth=0):
    if node is None or depth > 40:
        return
    try:
        states = node.getState()
        sensitive = "sensitive" if states.contains(pyatspi.STATE_SENSITIVE) else "insensitive"
        focused = "focused" if states.contains(pyatspi.STATE_FOCUSED) else ""
        print("\t".join([node.getRoleName(), flat(node.name), sensitive, focused, value(node), text(node)]))
        for index in range(node.childCount):
            walk(node.getChildAtIndex(index), depth + 1)
    except Exception as error:  # a node that went away while walking
        print("gone\t%s\t\t" % flat(str(error)))


desktop = pyatspi.Registry.getDesktop(0)
for index in range(desktop.childCount):
    application = desktop.getChildAtIndex(index)
    if application is not None and application.name == sys.argv[1]:
        walk(application)
