/// The locale of the programs a test starts.
public enum TestLocale {
    /// The locale variables of a process whose texts a test reads in
    /// English, whatever the test runner's own locale (an empty variable
    /// counts as unset). A test of another language sets `LANG` (or
    /// `LC_ALL`, `LANGUAGE`) over these.
    public static let english = ["LC_ALL": "", "LC_MESSAGES": "", "LANGUAGE": "", "LANG": "C.UTF-8"]

    /// German, by a locale that does not have to be generated on the machine.
    public static let german = ["LC_ALL": "", "LC_MESSAGES": "", "LANGUAGE": "", "LANG": "de_DE.UTF-8"]
}
