import CShareKitSecretCheck
import Testing

/// CSecret declares the libsecret and GLib functions it loads on first use
/// instead of including their headers; CSecretCheck compiles those
/// declarations together with the headers, so a declaration that disagrees
/// fails the build of these tests before any test runs.
@Suite("libsecret's functions as CSecret declares them")
struct SecretDeclarationTests {
    @Test("CSecret's declarations, constants and structure layouts agree with libsecret's and GLib's headers")
    func declarationsAgree() {
        #expect(sk_secret_declarations_checked() == 1)
    }
}
