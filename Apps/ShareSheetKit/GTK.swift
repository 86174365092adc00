import CShareKitGTK

// GTK's C types as Swift sees them: every widget is a `GtkWidget *` and
// each class's functions want their own pointer type, which C gets by a
// cast macro. Swift converts between the pointer types through
// OpaquePointer; these helpers keep that in one place.

/// A widget as another of GTK's pointer types (`GtkWindow *`, `GtkLabel *`, ...).
func cast<T>(_ widget: UnsafeMutablePointer<GtkWidget>) -> UnsafeMutablePointer<T> {
    UnsafeMutablePointer<T>(OpaquePointer(widget))
}

/// A widget as one of GTK's pointer types that Swift sees as opaque (`GtkLabel *`, `GtkEditable *`, ...).
func cast(_ widget: UnsafeMutablePointer<GtkWidget>) -> OpaquePointer {
    OpaquePointer(widget)
}

/// Any GTK or GObject pointer as a `GtkWidget *`.
func widget<T>(_ pointer: UnsafeMutablePointer<T>) -> UnsafeMutablePointer<GtkWidget> {
    UnsafeMutablePointer<GtkWidget>(OpaquePointer(pointer))
}

/// Connects a C callback to `signal` of `instance` (GLib's `g_signal_connect`).
func connect<T, F>(_ instance: UnsafeMutablePointer<T>, _ signal: String, _ callback: F) {
    _ = sharekit_connect(UnsafeMutableRawPointer(instance), signal, unsafeBitCast(callback, to: GCallback.self), nil)
}

/// Connects a C callback to `signal` of an instance whose type Swift sees as opaque.
func connect<F>(_ instance: OpaquePointer, _ signal: String, _ callback: F) {
    _ = sharekit_connect(UnsafeMutableRawPointer(instance), signal, unsafeBitCast(callback, to: GCallback.self), nil)
}

/// The text of an entry (or a search entry, which is a `GtkEditable` too).
func editableText(_ entry: UnsafeMutablePointer<GtkWidget>) -> String {
    String(cString: gtk_editable_get_text(cast(entry)))
}

/// A label that wraps and starts at the left.
func wrappingLabel(_ text: String) -> UnsafeMutablePointer<GtkWidget> {
    let label = gtk_label_new(text)!
    gtk_label_set_wrap(cast(label), 1)
    gtk_label_set_xalign(cast(label), 0)
    return label
}

/// Work handed to GTK's main loop from any thread (GLib's idle source):
/// the sheet's widgets are only ever touched on the main thread.
final class MainLoopWork {
    let body: () -> Void
    init(_ body: @escaping () -> Void) { self.body = body }
}

/// Runs `body` on GTK's main thread, soon.
func onMainLoop(_ body: @escaping @Sendable () -> Void) {
    let work = Unmanaged.passRetained(MainLoopWork(body)).toOpaque()
    g_idle_add_full(
        G_PRIORITY_DEFAULT_IDLE,
        { data in
            let work = Unmanaged<MainLoopWork>.fromOpaque(data!).takeRetainedValue()
            work.body()
            return 0
        }, work, nil)
}

/// Runs `body` on GTK's main thread after `milliseconds`.
func onMainLoop(after milliseconds: UInt32, _ body: @escaping @Sendable () -> Void) {
    let work = Unmanaged.passRetained(MainLoopWork(body)).toOpaque()
    g_timeout_add_full(
        G_PRIORITY_DEFAULT, milliseconds,
        { data in
            let work = Unmanaged<MainLoopWork>.fromOpaque(data!).takeRetainedValue()
            work.body()
            return 0
        }, work, nil)
}
