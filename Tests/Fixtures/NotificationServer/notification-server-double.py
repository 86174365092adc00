#!/usr/bin/python3
"""A test double of the freedesktop notification server.

It owns org.freedesktop.Notifications on the session bus it is given (a
private bus a test started) and records every call as one JSON line in a
file, so a test sees exactly what a client (notify-send, run by the
ShareKit daemon) asked for: the summary, the body, the hints, the actions
and the replaces_id. It answers as a real server does: a new id for a new
notification, the same id for a notification that replaces another.

A test clicks a notification through the double's own interface
(org.sharekit.TestDouble.Click(id)): the double emits ActionInvoked(id,
"default") as a real server does when the person clicks, so the client's
wait for the click ends as it would on a desktop.

Usage (with Debian's python3, which has python3-dbus and python3-gi):
/usr/bin/python3 notification-server-double.py --address BUS_ADDRESS --record FILE
It prints "ready" on standard output once the name is owned.
"""

import argparse
import json
import sys

import dbus
import dbus.service
from dbus.mainloop.glib import DBusGMainLoop
from gi.repository import GLib

NAME = "org.freedesktop.Notifications"
PATH = "/org/freedesktop/Notifications"
DOUBLE = "org.sharekit.TestDouble"


def plain(value):
    """A D-Bus value as plain JSON (hints hold variants of several types)."""
    if isinstance(value, (dbus.Boolean, bool)):
        return bool(value)
    if isinstance(value, (dbus.Byte, dbus.Int16, dbus.Int32, dbus.Int64, dbus.UInt16, dbus.UInt32, dbus.UInt64, int)):
        return int(value)
    if isinstance(value, (dbus.Double, float)):
        return float(value)
    if isinstance(value, (dbus.Array, list, dbus.Struct, tuple)):
        return [plain(item) for item in value]
    if isinstance(value, (dbus.Dictionary, dict)):
        return {str(key): plain(item) for key, item in value.items()}
    return str(value)


class Server(dbus.service.Object):
    def __init__(self, bus, record):
        super().__init__(bus, PATH)
        self.record = record
        self.next_id = 0

    def write(self, entry):
        with open(self.record, "a", encoding="utf-8") as handle:
            handle.write(json.dumps(entry, sort_keys=True) + "\n")

    @dbus.service.method(NAME, in_signature="", out_signature="as")
    def GetCapabilities(self):
        return ["actions", "body", "body-markup", "persistence", "sound"]

    @dbus.service.method(NAME, in_signature="", out_signature="ssss")
    def GetServerInformation(self):
        return ["sharekit-test-double", "ShareKit", "1.0", "1.2"]

    @dbus.service.method(NAME, in_signature="susssasa{sv}i", out_signature="u")
    def Notify(self, app_name, replaces_id, app_icon, summary, body, actions, hints, timeout):
        if replaces_id:
            notification_id = int(replaces_id)
        else:
            self.next_id += 1
            notification_id = self.next_id
        self.write({
            "call": "Notify", "id": notification_id, "app_name": str(app_name), "replaces_id": int(replaces_id),
            "summary": str(summary), "body": str(body), "actions": plain(actions), "hints": plain(hints),
            "timeout": int(timeout),
        })
        return dbus.UInt32(notification_id)

    @dbus.service.method(NAME, in_signature="u", out_signature="")
    def CloseNotification(self, notification_id):
        self.write({"call": "CloseNotification", "id": int(notification_id)})
        self.NotificationClosed(notification_id, 3)

    @dbus.service.signal(NAME, signature="us")
    def ActionInvoked(self, notification_id, action_key):
        pass

    @dbus.service.signal(NAME, signature="uu")
    def NotificationClosed(self, notification_id, reason):
        pass

    @dbus.service.method(DOUBLE, in_signature="u", out_signature="")
    def Click(self, notification_id):
        self.write({"call": "Click", "id": int(notification_id)})
        self.ActionInvoked(notification_id, "default")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--address", required=True, help="the session bus to own the name on")
    parser.add_argument("--record", required=True, help="the file every call is appended to (JSON lines)")
    arguments = parser.parse_args()
    DBusGMainLoop(set_as_default=True)
    bus = dbus.bus.BusConnection(arguments.address)
    owned = bus.request_name(NAME, dbus.bus.NAME_FLAG_DO_NOT_QUEUE)
    if owned != dbus.bus.REQUEST_NAME_REPLY_PRIMARY_OWNER:
        print(f"cannot own {NAME} on {arguments.address}", file=sys.stderr)
        return 1
    server = Server(bus, arguments.record)  # noqa: F841 (kept alive by the main loop's references)
    print("ready", flush=True)
    GLib.MainLoop().run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
