import CShareKitGTK
import Foundation
import ShareKitAppSupport
import ShareKitCLIKit
import ShareKitCore

/// The sheet of this process. GTK calls back through C functions that
/// cannot capture anything, so they find the sheet here; it is set once,
/// before the main loop runs, and used on the main thread only.
nonisolated(unsafe) var currentSheet: ShareSheet!

/// The share sheet: a GTK 4 window that does what the share extension's
/// sheet does. A header bar with Cancel and Send (Send insensitive until a
/// target is chosen and every item can be sent), the preview of the first
/// item, the recent targets and a search over the server's threads and
/// channels, a comment, the progress of the send; the login form when
/// nobody is logged in. Sending is `share send`'s (``SheetSession``).
///
/// Every widget is touched on GTK's main thread only; the session's work
/// (search, the limits, the send) runs in tasks whose answers come back
/// through ``onMainLoop(_:)``.
final class ShareSheet {
    let session: SheetSession
    var items: [String]
    var texts: [String]
    /// The exit code the program ends with: cancelled until a send ends otherwise.
    var exitCode = ExitCode.cancelled

    // The widgets.
    var window: UnsafeMutablePointer<GtkWidget>!
    /// The application the window belongs to: ``close()`` ends its main loop.
    var application: UnsafeMutablePointer<GtkApplication>?
    var sendButton: UnsafeMutablePointer<GtkWidget>!
    var cancelButton: UnsafeMutablePointer<GtkWidget>!
    var shareBox: UnsafeMutablePointer<GtkWidget>!
    var previewPicture: UnsafeMutablePointer<GtkWidget>!
    var previewTitle: UnsafeMutablePointer<GtkWidget>!
    var previewDetail: UnsafeMutablePointer<GtkWidget>!
    var problemLabel: UnsafeMutablePointer<GtkWidget>!
    var searchEntry: UnsafeMutablePointer<GtkWidget>!
    var listHeading: UnsafeMutablePointer<GtkWidget>!
    var targetList: UnsafeMutablePointer<GtkWidget>!
    var commentEntry: UnsafeMutablePointer<GtkWidget>!
    var statusLabel: UnsafeMutablePointer<GtkWidget>!
    var progressBar: UnsafeMutablePointer<GtkWidget>!
    /// The bytes, the total and the rate under the bar.
    var progressLabel: UnsafeMutablePointer<GtkWidget>!
    var loginBox: UnsafeMutablePointer<GtkWidget>!
    var serverEntry: UnsafeMutablePointer<GtkWidget>!
    var userEntry: UnsafeMutablePointer<GtkWidget>!
    var passwordEntry: UnsafeMutablePointer<GtkWidget>!
    var loginButton: UnsafeMutablePointer<GtkWidget>!
    var loginMessage: UnsafeMutablePointer<GtkWidget>!

    // The state.
    /// The targets the list shows, in its order.
    var shown: [SheetTarget] = []
    /// The highlighted row (Down and Up move it), or nil.
    var highlighted: Int?
    /// The target Enter (or a click) chose: Send needs one.
    var chosen: SheetTarget?
    /// The items' problems; nil until they were checked.
    var problems: [String]?
    /// Problems known before the items were checked (an empty clipboard).
    var standingProblems: [String] = []
    /// Which search answer the list waits for: older answers are dropped.
    var searchGeneration = 0
    var sending = false
    var handedOff = false
    var sendStarted = Date()

    init(session: SheetSession, items: [String], texts: [String]) {
        self.session = session
        self.items = items
        self.texts = texts
    }

    static func text(_ key: CLIText, _ arguments: [String: String] = [:]) -> String {
        SheetSession.text(key, arguments)
    }

    // MARK: - Building the window

    /// Builds the window for `application` and shows it.
    func build(_ application: UnsafeMutablePointer<GtkApplication>) {
        self.application = application
        window = gtk_application_window_new(application)
        gtk_window_set_title(cast(window), Self.text(.sheetTitle))
        gtk_window_set_default_size(cast(window), 520, 560)

        let header = gtk_header_bar_new()!
        cancelButton = gtk_button_new_with_label(Self.text(.sheetCancel))
        sharekit_accessible_label(cancelButton, Self.text(.sheetCancel))
        sendButton = gtk_button_new_with_label(Self.text(.sheetSend))
        sharekit_accessible_label(sendButton, Self.text(.sheetSend))
        gtk_widget_add_css_class(sendButton, "suggested-action")
        gtk_header_bar_pack_start(cast(header), cancelButton)
        gtk_header_bar_pack_end(cast(header), sendButton)
        gtk_window_set_titlebar(cast(window), header)
        connect(cancelButton, "clicked", Self.cancelClicked)
        connect(sendButton, "clicked", Self.sendClicked)

        let content = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!
        buildShareBox()
        buildLoginBox()
        gtk_box_append(cast(content), shareBox)
        gtk_box_append(cast(content), loginBox)
        gtk_window_set_child(cast(window), content)

        let keys = gtk_event_controller_key_new()!
        gtk_event_controller_set_propagation_phase(keys, GTK_PHASE_CAPTURE)
        connect(keys, "key-pressed", Self.keyPressed)
        gtk_widget_add_controller(window, keys)
        connect(window, "close-request", Self.closeRequested)

        showShareOrLogin()
        gtk_window_present(cast(window))
    }

    private func margins(_ box: UnsafeMutablePointer<GtkWidget>) {
        gtk_widget_set_margin_start(box, 12)
        gtk_widget_set_margin_end(box, 12)
        gtk_widget_set_margin_top(box, 12)
        gtk_widget_set_margin_bottom(box, 12)
    }

    private func buildShareBox() {
        shareBox = gtk_box_new(GTK_ORIENTATION_VERTICAL, 8)
        margins(shareBox)
        gtk_widget_set_vexpand(shareBox, 1)

        let preview = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 12)!
        previewPicture = gtk_picture_new()
        gtk_widget_set_size_request(previewPicture, 64, 64)
        gtk_widget_set_visible(previewPicture, 0)
        let names = gtk_box_new(GTK_ORIENTATION_VERTICAL, 2)!
        previewTitle = wrappingLabel(" ")
        gtk_widget_add_css_class(previewTitle, "heading")
        previewDetail = wrappingLabel("")
        gtk_widget_add_css_class(previewDetail, "dim-label")
        gtk_box_append(cast(names), previewTitle)
        gtk_box_append(cast(names), previewDetail)
        gtk_box_append(cast(preview), previewPicture)
        gtk_box_append(cast(preview), names)
        gtk_box_append(cast(shareBox), preview)

        problemLabel = wrappingLabel("")
        gtk_widget_add_css_class(problemLabel, "error")
        gtk_widget_set_visible(problemLabel, 0)
        gtk_box_append(cast(shareBox), problemLabel)

        searchEntry = gtk_search_entry_new()
        sharekit_set_string(UnsafeMutableRawPointer(searchEntry), "placeholder-text", Self.text(.sheetSearchHint))
        sharekit_accessible_label(searchEntry, Self.text(.sheetSearch))
        connect(searchEntry, "search-changed", Self.searchChanged)
        gtk_box_append(cast(shareBox), searchEntry)

        listHeading = wrappingLabel(Self.text(.sheetRecent))
        gtk_widget_add_css_class(listHeading, "dim-label")
        gtk_box_append(cast(shareBox), listHeading)
        targetList = gtk_list_box_new()
        // The list is driven from the search field (Down, Up, Enter): Tab goes from there to the comment.
        gtk_widget_set_focusable(targetList, 0)
        gtk_list_box_set_selection_mode(cast(targetList), GTK_SELECTION_SINGLE)
        connect(targetList, "row-activated", Self.rowActivated)
        let scroller = gtk_scrolled_window_new()!
        gtk_scrolled_window_set_child(cast(scroller), targetList)
        gtk_widget_set_vexpand(scroller, 1)
        gtk_widget_set_focusable(scroller, 0)
        gtk_box_append(cast(shareBox), scroller)

        commentEntry = gtk_entry_new()
        gtk_entry_set_placeholder_text(cast(commentEntry), Self.text(.sheetCommentHint))
        sharekit_accessible_label(commentEntry, Self.text(.sheetComment))
        gtk_box_append(cast(shareBox), commentEntry)

        statusLabel = wrappingLabel(Self.text(.sheetChooseTarget))
        gtk_box_append(cast(shareBox), statusLabel)
        progressBar = gtk_progress_bar_new()
        gtk_widget_set_visible(progressBar, 0)
        gtk_widget_set_visible(progressLabel, 0)
        gtk_box_append(cast(shareBox), progressBar)
        // A label of its own rather than the bar's text: GTK keeps the
        // bar's text out of the accessible tree, and a screen reader's user
        // wants the bytes and the rate as much as the bar's value.
        progressLabel = wrappingLabel("")
        gtk_widget_set_visible(progressLabel, 0)
        gtk_box_append(cast(shareBox), progressLabel)
    }

    private func buildLoginBox() {
        loginBox = gtk_box_new(GTK_ORIENTATION_VERTICAL, 8)
        margins(loginBox)
        gtk_box_append(cast(loginBox), wrappingLabel(Self.text(.sheetNoAccount)))
        func field(_ key: CLIText) -> UnsafeMutablePointer<GtkWidget> {
            gtk_box_append(cast(loginBox), wrappingLabel(Self.text(key)))
            let entry = gtk_entry_new()!
            sharekit_accessible_label(entry, Self.text(key))
            gtk_box_append(cast(loginBox), entry)
            return entry
        }
        serverEntry = field(.sheetServer)
        if let server = session.environment["SHAREKIT_SERVER"] {
            gtk_editable_set_text(cast(serverEntry), server)
        }
        userEntry = field(.sheetUser)
        passwordEntry = field(.sheetPassword)
        gtk_entry_set_visibility(cast(passwordEntry), 0)
        connect(passwordEntry, "activate", Self.loginActivated)
        loginButton = gtk_button_new_with_label(Self.text(.sheetLogIn))
        sharekit_accessible_label(loginButton, Self.text(.sheetLogIn))
        connect(loginButton, "clicked", Self.loginActivated)
        gtk_box_append(cast(loginBox), loginButton)
        loginMessage = wrappingLabel("")
        gtk_widget_add_css_class(loginMessage, "error")
        gtk_box_append(cast(loginBox), loginMessage)
    }

    /// The share part when someone is logged in, else the login form.
    func showShareOrLogin() {
        let loggedIn = session.hasAccount
        gtk_widget_set_visible(shareBox, loggedIn ? 1 : 0)
        gtk_widget_set_visible(loginBox, loggedIn ? 0 : 1)
        if loggedIn {
            show(session.recentTargets(), heading: Self.text(.sheetRecent), empty: Self.text(.sheetNoRecent))
            checkItems()
            gtk_widget_grab_focus(searchEntry)
        } else {
            gtk_widget_grab_focus(editableText(serverEntry).isEmpty ? serverEntry : userEntry)
        }
        updateSend()
    }

    // MARK: - Items, targets, search

    /// Checks the items against the server's limits and shows the preview.
    func checkItems() {
        let session = self.session
        let items = self.items
        let texts = self.texts
        Task.detached {
            let preview = await session.check(items: items, texts: texts)
            onMainLoop { currentSheet.showPreview(preview) }
        }
    }

    func showPreview(_ preview: SheetPreview) {
        gtk_label_set_text(cast(previewTitle), preview.title)
        gtk_label_set_text(cast(previewDetail), preview.detail)
        if let image = preview.imagePath {
            gtk_picture_set_filename(cast(previewPicture), image)
            gtk_widget_set_visible(previewPicture, 1)
        }
        let all = standingProblems + preview.problems
        problems = all
        gtk_label_set_text(cast(problemLabel), all.joined(separator: "\n"))
        gtk_widget_set_visible(problemLabel, all.isEmpty ? 0 : 1)
        updateSend()
    }

    /// Shows `targets` in the list, the first highlighted.
    func show(_ targets: [SheetTarget], heading: String, empty: String) {
        while let row = gtk_widget_get_first_child(targetList) {
            gtk_list_box_remove(cast(targetList), row)
        }
        shown = targets
        for target in targets {
            let row = gtk_list_box_row_new()!
            let label = wrappingLabel(target.label)
            gtk_list_box_row_set_child(cast(row), label)
            // The row's name is what it shows: "New post in ..." for a forum, else the display path.
            sharekit_accessible_label(row, target.label)
            gtk_widget_set_focusable(row, 0)
            gtk_list_box_append(cast(targetList), row)
        }
        gtk_label_set_text(cast(listHeading), targets.isEmpty ? empty : heading)
        highlight(targets.isEmpty ? nil : 0)
    }

    func highlight(_ index: Int?) {
        highlighted = index
        if let index, let row = gtk_list_box_get_row_at_index(cast(targetList), Int32(index)) {
            gtk_list_box_select_row(cast(targetList), row)
        } else {
            gtk_list_box_unselect_all(cast(targetList))
        }
    }

    func move(_ delta: Int) {
        guard !shown.isEmpty else { return }
        let next = max(0, min(shown.count - 1, (highlighted ?? -1) + delta))
        highlight(next)
    }

    func choose(_ index: Int?) {
        guard let index, shown.indices.contains(index) else { return }
        highlight(index)
        chosen = shown[index]
        gtk_label_set_text(cast(statusLabel), Self.text(.sheetTargetChosen, ["path": shown[index].label]))
        updateSend()
    }

    func searchChanged() {
        let query = editableText(searchEntry).trimmingCharacters(in: .whitespaces)
        searchGeneration += 1
        guard !query.isEmpty else {
            show(session.recentTargets(), heading: Self.text(.sheetRecent), empty: Self.text(.sheetNoRecent))
            return
        }
        let generation = searchGeneration
        let session = self.session
        Task.detached {
            let answer = await session.search(query)
            onMainLoop {
                guard currentSheet.searchGeneration == generation else { return }
                currentSheet.showSearch(answer, query: query)
            }
        }
    }

    func showSearch(_ answer: Result<[SheetTarget], SheetProblem>, query: String) {
        switch answer {
        case .success(let targets):
            show(targets, heading: Self.text(.sheetMatches, ["query": query]), empty: Self.text(.sheetNoMatch))
        case .failure(let problem):
            show([], heading: "", empty: problem.message)
        }
    }

    /// Send is sensitive when a target is chosen, the items were checked
    /// and have no problem, and no send runs.
    func updateSend() {
        let ready = chosen != nil && problems?.isEmpty == true && !sending && session.hasAccount
        gtk_widget_set_sensitive(sendButton, ready ? 1 : 0)
    }

    // MARK: - Sending

    func send() {
        guard let target = chosen, gtk_widget_get_sensitive(sendButton) != 0 else { return }
        sending = true
        updateSend()
        gtk_widget_set_sensitive(searchEntry, 0)
        gtk_widget_set_sensitive(commentEntry, 0)
        gtk_label_set_text(cast(statusLabel), Self.text(.sheetSending, ["path": target.label]))
        gtk_widget_set_visible(progressBar, items.isEmpty ? 0 : 1)
        gtk_label_set_text(cast(progressLabel), "")
        gtk_widget_set_visible(progressLabel, items.isEmpty ? 0 : 1)
        sendStarted = Date()
        let session = self.session
        let comment = editableText(commentEntry)
        let items = self.items
        let texts = self.texts
        let started = sendStarted
        Task.detached {
            let outcome = await session.send(target: target, comment: comment, items: items, texts: texts) { step in
                let seconds = Date().timeIntervalSince(started)
                let rate = seconds > 0 ? Double(step.done) / seconds : 0
                onMainLoop { currentSheet.showProgress(step, rate: rate) }
            }
            onMainLoop { currentSheet.finish(outcome) }
        }
    }

    func showProgress(_ step: SheetProgress, rate: Double) {
        let fraction = step.total > 0 ? Double(step.done) / Double(step.total) : 0
        gtk_progress_bar_set_fraction(cast(progressBar), fraction)
        gtk_label_set_text(cast(progressLabel), step.text(rate: rate))
    }

    func finish(_ outcome: SheetOutcome) {
        sending = false
        exitCode = outcome.code
        gtk_widget_set_visible(progressBar, 0)
        gtk_widget_set_visible(progressLabel, 0)
        gtk_label_set_text(cast(statusLabel), outcome.message)
        // The outcome for whoever started the sheet (a script, a test): the sheet's own words.
        FileDescriptorSink.standardOutput.write(TerminalText.neutralised(outcome.message) + "\n")
        switch outcome.kind {
        case .sent, .keptForDaemon:
            // Long enough to read where it went; the share is safe either way.
            onMainLoop(after: outcome.kind == .sent ? 1200 : 2500) { currentSheet.close() }
        case .refused:
            gtk_label_set_text(cast(problemLabel), outcome.message)
            gtk_widget_set_visible(problemLabel, 1)
            gtk_widget_set_sensitive(searchEntry, 1)
            gtk_widget_set_sensitive(commentEntry, 1)
            updateSend()
        }
    }

    /// Cancel, Escape or closing the window: before a send nothing was
    /// kept and the sheet closes; during one the share goes to share-daemon
    /// (as Ctrl-C does for `share send`) and the sheet says so, then closes.
    func cancel() {
        if sending {
            guard !handedOff else { return }
            handedOff = true
            session.handOff()
            return
        }
        // An earlier refusal is not how the sheet ended: it was cancelled.
        exitCode = .cancelled
        close()
    }

    /// Ends the sheet with ``exitCode``: the window is hidden and GTK's
    /// main loop stops, so `g_application_run` returns to
    /// ``ShareSheetProgram/main(_:)`` and the program ends in `main`. The
    /// window is not destroyed: destroying one whose rows were replaced can
    /// crash GTK 4.8's accessibility code (a NULL object path), and it goes
    /// with the process.
    func close() {
        gtk_widget_set_visible(window, 0)
        if let application { g_application_quit(UnsafeMutablePointer<GApplication>(OpaquePointer(application))) }
    }

    // MARK: - Login

    func logIn() {
        let server = editableText(serverEntry)
        let user = editableText(userEntry)
        let password = editableText(passwordEntry)
        gtk_widget_set_sensitive(loginButton, 0)
        gtk_label_set_text(cast(loginMessage), Self.text(.sheetLoggingIn))
        let session = self.session
        Task.detached {
            let problem = await session.login(server: server, user: user, password: password)
            onMainLoop { currentSheet.loggedIn(problem) }
        }
    }

    func loggedIn(_ problem: String?) {
        gtk_widget_set_sensitive(loginButton, 1)
        gtk_editable_set_text(cast(passwordEntry), "")
        if let problem {
            gtk_label_set_text(cast(loginMessage), problem)
            return
        }
        gtk_label_set_text(cast(loginMessage), "")
        showShareOrLogin()
    }

    // MARK: - GTK's callbacks

    static let cancelClicked: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = { _, _ in
        currentSheet.cancel()
    }

    static let sendClicked: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = { _, _ in
        currentSheet.send()
    }

    static let loginActivated: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = {
        _, _ in
        currentSheet.logIn()
    }

    static let searchChanged: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = {
        _, _ in
        currentSheet.searchChanged()
    }

    static let rowActivated:
        @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<GtkListBoxRow>?, UnsafeMutableRawPointer?) ->
            Void = { _, row, _ in
                guard let row else { return }
                currentSheet.choose(Int(gtk_list_box_row_get_index(row)))
            }

    static let closeRequested: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> gboolean = {
        _, _ in
        currentSheet.cancel()
        return 1
    }

    /// The keyboard, before the focused widget sees it: Escape cancels,
    /// Ctrl+Enter sends; in the search field Down and Up move through the
    /// targets, Enter chooses one and Tab goes to the comment.
    static let keyPressed:
        @convention(c) (UnsafeMutableRawPointer?, guint, guint, GdkModifierType, UnsafeMutableRawPointer?) -> gboolean =
            { _, key, _, state, _ in
                let sheet: ShareSheet = currentSheet
                let control = (state.rawValue & GDK_CONTROL_MASK.rawValue) != 0
                let enter = key == UInt32(GDK_KEY_Return) || key == UInt32(GDK_KEY_KP_Enter)
                if key == UInt32(GDK_KEY_Escape) {
                    sheet.cancel()
                    return 1
                }
                if enter, control {
                    sheet.send()
                    return 1
                }
                guard gtk_widget_get_visible(sheet.shareBox) != 0, let focus = gtk_window_get_focus(cast(sheet.window)),
                    focus == sheet.searchEntry || gtk_widget_is_ancestor(focus, sheet.searchEntry) != 0
                else { return 0 }
                switch key {
                case UInt32(GDK_KEY_Down):
                    sheet.move(1)
                    return 1
                case UInt32(GDK_KEY_Up):
                    sheet.move(-1)
                    return 1
                case UInt32(GDK_KEY_Tab):
                    gtk_widget_grab_focus(sheet.commentEntry)
                    return 1
                default:
                    if enter {
                        sheet.choose(sheet.highlighted)
                        return 1
                    }
                    return 0
                }
            }
}
