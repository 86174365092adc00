// GTK 4 for share-sheet. Swift cannot call C's variadic functions nor GTK's
// cast macros, so the few that the sheet needs are wrapped here as inline
// functions with fixed arguments.
#ifndef CSHAREKITGTK_SHIM_H
#define CSHAREKITGTK_SHIM_H

#include <gtk/gtk.h>

/// Sets the name a screen reader (and AT-SPI) gives the widget.
static inline void sharekit_accessible_label(GtkWidget *widget, const char *label) {
    gtk_accessible_update_property(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_PROPERTY_LABEL, label, -1);
}

/// Connects a callback to a signal of any GObject.
static inline gulong sharekit_connect(gpointer instance, const char *signal, GCallback callback, gpointer data) {
    return g_signal_connect_data(instance, signal, callback, data, NULL, (GConnectFlags)0);
}

/// Sets a string property of any GObject (`g_object_set` is variadic).
static inline void sharekit_set_string(gpointer object, const char *property, const char *value) {
    g_object_set(object, property, value, NULL);
}

#endif
