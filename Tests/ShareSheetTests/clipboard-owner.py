"""Owns the X clipboard (or the primary selection) with a text until killed:
what a person's copy leaves behind, for the share sheet's --clipboard and
--selection tests. Prints "ready" once it owns it."""
import sys

import gi

gi.require_version("Gdk", "4.0")
gi.require_version("Gtk", "4.0")
from gi.repository import Gdk, GLib, GObject, Gtk  # noqa: E402

which, text = sys.argv[1], sys.argv[2]
Gtk.init()
display = Gdk.Display.get_default()
clipboard = display.get_primary_clipboard() if which == "primary" else display.get_clipboard()
value = GObject.Value()
value.init(GObject.TYPE_STRING)
value.set_string(text)
clipboard.set_content(Gdk.ContentProvider.new_for_value(value))
print("ready", flush=True)
GLib.MainLoop().run()
